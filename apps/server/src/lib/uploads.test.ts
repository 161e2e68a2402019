import { pbkdf2 } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HEAD_BYTES, sanitiseName, stageUpload } from './uploads.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'uploads-'));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

class TooLarge extends Error {}
const tooLarge = () => new TooLarge('too large');

describe('stageUpload', () => {
  it('streams to <dir>/<uuid>.tmp and keeps the head', async () => {
    const data = Buffer.alloc(HEAD_BYTES + 10, 7);
    const staged = await stageUpload(dir, Readable.from([data]), {
      maxBytes: data.length,
      tooLarge,
    });
    expect(path.basename(staged.filePath)).toMatch(/^[0-9a-f-]{36}\.tmp$/);
    expect(staged.size).toBe(data.length);
    expect(staged.head).toHaveLength(HEAD_BYTES);
    expect(await fs.readFile(staged.filePath)).toEqual(data);
  });

  it('leaves no temp file behind when the upload fails before the file is open', async () => {
    // Keep libuv's threads busy so the temp file's open waits while the source fails at once
    // (as a busy server's would): the file must still be gone once staging has failed.
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
    const busy = Array.from(
      { length: threads },
      () =>
        new Promise((resolve) => pbkdf2('x', 'salt', 200_000, 32, 'sha256', () => resolve(null))),
    );
    const failing = new Readable({
      read() {
        this.destroy(new Error('client went away'));
      },
    });
    await expect(stageUpload(dir, failing, { maxBytes: 10, tooLarge })).rejects.toThrow(
      'client went away',
    );
    await Promise.all(busy);
    await new Promise((r) => setTimeout(r, 50));
    expect(await fs.readdir(dir)).toEqual([]);
  });
});

describe('sanitiseName', () => {
  it('keeps only a safe display name', () => {
    expect(sanitiseName('../../etc/passwd')).toBe('passwd');
    expect(sanitiseName('evil\u202egnp.exe')).toBe('evilgnp.exe');
    expect(sanitiseName('')).toBe('file');
  });
});
