import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { pythonZipCheck, unzip } from '../../test/zip.js';
import { ZIP_TOO_BIG, ZIP_TOO_MANY, ZipStream } from './zip-stream.js';

/** The archive `build` writes, whole. */
async function archive(
  build: (zip: ZipStream) => void | Promise<void>,
  limits?: { bytes: number; entries: number },
): Promise<Buffer> {
  const out = new PassThrough();
  const bytes = buffer(out);
  const zip = new ZipStream(out, limits);
  await build(zip);
  await zip.finish();
  return bytes;
}

/** Info-ZIP's `unzip -t` verdict: a reader written by others than fflate and us. */
function infoZipTest(zip: Buffer): string {
  const file = path.join(os.tmpdir(), `herald-zip-test-${process.pid}-${Date.now()}.zip`);
  fs.writeFileSync(file, zip);
  try {
    return execFileSync('unzip', ['-t', file], { encoding: 'utf8' });
  } finally {
    fs.rmSync(file, { force: true });
  }
}

describe('ZipStream', () => {
  it('writes buffers, streams and pieces that other readers accept byte for byte', async () => {
    const media = Buffer.alloc(300_000);
    for (let i = 0; i < media.length; i++) media[i] = (i * 7919) % 251;
    const zip = await archive(async (z) => {
      z.addBuffer('campaign.json', '{"name":"Diwali"}\n');
      z.addBuffer('empty.txt', '');
      z.addStream('numbers.csv', () => Readable.from(['number\r\n', '919876543210\r\n']));
      z.addStream('photo – दिवाली.jpg', () => Readable.from([media]), { compressionLevel: 1 });
      const sink = z.openEntry('sheet.xml', { bufferBytes: 1024 });
      for (let i = 0; i < 5000; i++) await sink.write(`<row>${i}</row>`);
      sink.end();
    });
    const files = unzip(zip);
    expect(files.get('campaign.json')).toBe('{"name":"Diwali"}\n');
    expect(files.get('empty.txt')).toBe('');
    expect(files.get('numbers.csv')).toBe('number\r\n919876543210\r\n');
    expect(files.has('photo – दिवाली.jpg')).toBe(true); // its CRC and size checked by unzip()
    expect(files.get('sheet.xml')).toContain('<row>4999</row>');
    expect(pythonZipCheck(zip).sort()).toEqual(
      ['campaign.json', 'empty.txt', 'numbers.csv', 'photo – दिवाली.jpg', 'sheet.xml'].sort(),
    );
    expect(infoZipTest(zip)).toMatch(/No errors detected/);
  });

  it('fails with the input’s error; the entries after it are never opened', async () => {
    const out = new PassThrough();
    out.resume();
    const zip = new ZipStream(out);
    let opened = false;
    zip.addStream('bad.bin', () =>
      Readable.from(
        (async function* () {
          yield 'some bytes';
          throw new Error('disk went away');
        })(),
      ),
    );
    zip.addStream('later.txt', () => {
      opened = true;
      return Readable.from(['never read']);
    });
    await expect(zip.finish()).rejects.toThrow('disk went away');
    expect(opened).toBe(false);
  });

  it('rejects pending writes instead of hanging when the output closes early', async () => {
    const out = new Writable({ highWaterMark: 1024, write: (_c, _e, cb) => setTimeout(cb, 5) });
    const zip = new ZipStream(out);
    const sink = zip.openEntry('big.txt', { bufferBytes: 1024 });
    const writing = (async () => {
      for (let i = 0; i < 1_000_000; i++) await sink.write(`${Math.random()}\n`);
    })();
    setTimeout(() => out.destroy(), 30);
    await expect(writing).rejects.toThrow();
    await expect(zip.finish()).rejects.toThrow();
  });

  it('refuses more entries, or more bytes, than a ZIP without ZIP64 holds', async () => {
    await expect(
      archive(
        (z) => {
          for (let i = 0; i < 4; i++) z.addBuffer(`f${i}.txt`, 'x');
        },
        { bytes: 0xffff_ffff, entries: 3 },
      ),
    ).rejects.toThrow(ZIP_TOO_MANY);
    const random = Buffer.alloc(64 * 1024);
    for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24;
    await expect(
      archive((z) => z.addBuffer('big.bin', random), { bytes: 32 * 1024, entries: 10 }),
    ).rejects.toThrow(ZIP_TOO_BIG);
  });
});
