import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { pythonZipCheck, unzip } from '../../../test/zip.js';
import { pack, PackedZip } from './backup-zip.js';

/**
 * The backup's own ZIP writer, read back by Python's zipfile (its own CRC and size checks) and by
 * the central-directory reader of the tests: entries joined from many separately deflated
 * pieces, an empty one, whole small files, the same with ZIP64 records; an output that fails
 * midway fails the pending write and every later call.
 */

/** Python's zipfile: each file's SHA-256, by name. */
function pythonRead(zip: Buffer): Record<string, string> {
  const file = path.join(os.tmpdir(), `herald-packed-${process.pid}-${Date.now()}.zip`);
  fs.writeFileSync(file, zip);
  try {
    const script =
      'import sys, json, zipfile, hashlib\nz = zipfile.ZipFile(sys.argv[1])\n' +
      'print(json.dumps({n: hashlib.sha256(z.read(n)).hexdigest() for n in z.namelist()}))';
    return JSON.parse(
      execFileSync('python3', ['-c', script, file], { encoding: 'utf8' }),
    ) as Record<string, string>;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** Text that deflates well, with some random bytes so pieces differ. */
function sample(n: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    parts.push(Buffer.from(`<row><c t="s"><v>${i % 97}</v></c><c><v>${i}</v></c></row>`));
    if (i % 50 === 0) parts.push(randomBytes(40));
  }
  return Buffer.concat(parts);
}

async function archive(zip64Above?: number) {
  const out = new PassThrough();
  const file = buffer(out);
  const zip = new PackedZip(out, zip64Above === undefined ? {} : { zip64Above });
  const big = sample(20_000);
  const tail = Buffer.from('</end>');
  await zip.startEntry('xl/worksheets/sheet1.xml');
  let crc = 0;
  for (let at = 0; at < big.length; at += 70_001) {
    const piece = pack(big.subarray(at, at + 70_001), crc);
    crc = piece.crc;
    await zip.write(piece);
  }
  await zip.endEntry(tail);
  await zip.startEntry('empty.xml');
  await zip.endEntry();
  await zip.addFile('[Content_Types].xml', '<Types>é</Types>');
  await zip.finish();
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const expected: Record<string, string> = {
    'xl/worksheets/sheet1.xml': sha(Buffer.concat([big, tail])),
    'empty.xml': sha(Buffer.alloc(0)),
    '[Content_Types].xml': sha(Buffer.from('<Types>é</Types>')),
  };
  return { bytes: await file, expected };
}

describe('PackedZip', () => {
  it('joins separately deflated pieces into entries real readers take', async () => {
    const { bytes, expected } = await archive();
    expect(pythonZipCheck(bytes)).toEqual(Object.keys(expected));
    expect(pythonRead(bytes)).toEqual(expected);
    const files = unzip(bytes);
    expect(files.get('[Content_Types].xml')).toBe('<Types>é</Types>');
    // No ZIP64 end record for a small archive.
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(false);
  });

  it('writes ZIP64 records when sizes and offsets pass the limit', async () => {
    const { bytes, expected } = await archive(0);
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    expect(pythonZipCheck(bytes)).toEqual(Object.keys(expected));
    expect(pythonRead(bytes)).toEqual(expected);
  });

  it('an output that fails midway fails the pending write and every later call', async () => {
    let taken = 0;
    const out = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _enc, cb) {
        taken += chunk.length;
        // Slow enough that writes wait for 'drain'; fails once some bytes went through.
        setTimeout(() => cb(taken > 4096 ? new Error('disk full') : null), 1);
      },
    });
    out.on('error', () => {});
    const zip = new PackedZip(out);
    await zip.startEntry('a.xml');
    const big = randomBytes(4096);
    const write = async () => {
      for (let i = 0; i < 100; i++) await zip.write(pack(big));
    };
    await expect(write()).rejects.toThrow(/disk full/);
    await expect(zip.endEntry()).rejects.toThrow(/disk full/);
    await expect(zip.finish()).rejects.toThrow();
  });
});
