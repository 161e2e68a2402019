import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';

/**
 * Test helper: reads a ZIP archive the way a spreadsheet program does, from its central
 * directory (extra fields skipped; no ZIP64, which small test archives never need), and
 * checks every file's CRC and size. Returns each file's text.
 */
export function unzip(zip: Buffer): Map<string, string> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('no end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const files = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central header ${i}`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const offset = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (zip.readUInt32LE(offset) !== 0x04034b50) throw new Error(`bad local header ${name}`);
    const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
    const body = zip.subarray(start, start + compressed);
    const data = method === 8 ? inflateRawSync(body) : body;
    if (data.length !== size || crc32(data) !== crc) throw new Error(`corrupt file ${name}`);
    files.set(name, data.toString('utf8'));
    at += 46 + skip;
  }
  return files;
}

/**
 * Python's zipfile verdict on the archive: a second reader, with its own CRC checks. Throws when
 * the archive is invalid, and also when python3 is missing: a check that cannot run must not
 * pass.
 */
export function pythonZipCheck(zip: Buffer): string[] {
  const file = path.join(os.tmpdir(), `herald-zip-${process.pid}-${Date.now()}.zip`);
  fs.writeFileSync(file, zip);
  try {
    const script =
      'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nbad = z.testzip()\n' +
      'assert bad is None, bad\nprint("\\n".join(z.namelist()))';
    return execFileSync('python3', ['-c', script, file], { encoding: 'utf8' }).trim().split('\n');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'python3 is needed to check this archive: install python3 (Debian: python3).',
      );
    }
    throw err;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** The text of every inline-string cell of a sheet, in order. */
export function sheetTexts(xml: string): string[] {
  return [...xml.matchAll(/<t xml:space="preserve">([^<]*)<\/t>/g)].map((m) => unescape(m[1]!));
}

function unescape(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}
