import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { server as msg } from '@herald/contract';
import { TINY_PNG } from '../users/test-fixtures.js';
import sharp from 'sharp';
import { storedNames } from '../../../test/storage-fixtures.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import { LocalFileStore } from '../../lib/storage/local-store.js';
import { LOGOS_FOLDER, changeLogo, checkLogo, fitLogo, logoUrl, storeLogo } from './logo-files.js';

let dir: string;
let store: FileStore;
const log = { warn: vi.fn() } as unknown as FastifyBaseLogger;
const files = () => storedNames(store, LOGOS_FOLDER);

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-logos-'));
  store = new LocalFileStore(dir);
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

describe('checkLogo', () => {
  it('refuses text and GIF bytes by content, takes a PNG whatever it is called', () => {
    expect(() => checkLogo(Buffer.from('not an image'))).toThrow(msg.logoType);
    expect(() => checkLogo(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toThrow(msg.logoType);
    expect(checkLogo(TINY_PNG)).toEqual({ data: TINY_PNG, ext: 'png' });
    expect(checkLogo(null)).toBeNull();
  });
});

const fixture = (name: string) => fs.readFile(new URL(`./fixtures/${name}`, import.meta.url));

describe('fitLogo', () => {
  it('scales a large png or jpeg made by another program down to 400 × 100, keeping its type', async () => {
    for (const [name, ext, width, height] of [
      ['wide-logo.png', 'png', 400, 100],
      ['photo.jpg', 'jpg', 150, 100],
    ] as const) {
      const data = await fixture(name);
      const fitted = await fitLogo(checkLogo(data)!);
      expect(fitted.ext).toBe(ext);
      const meta = await sharp(fitted.data).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([
        ext === 'png' ? 'png' : 'jpeg',
        width,
        height,
      ]);
      expect(fitted.data.length).toBeLessThan(data.length);
    }
  });

  it('keeps a small logo byte for byte and refuses bytes that only look like an image', async () => {
    const tiny = checkLogo(TINY_PNG)!;
    expect(await fitLogo(tiny)).toBe(tiny);
    const broken = Buffer.concat([TINY_PNG.subarray(0, 16), Buffer.alloc(64, 7)]);
    await expect(fitLogo({ data: broken, ext: 'png' })).rejects.toThrow(msg.logoType);
  });
});

describe('changeLogo', () => {
  it('removes the new file when the write fails, keeping the stored one', async () => {
    const old = await storeLogo(store, TINY_PNG, 'png');
    const failing = changeLogo(
      store,
      checkLogo(TINY_PNG),
      () => Promise.reject(new Error('rolled back')),
      log,
    );
    await expect(failing).rejects.toThrow('rolled back');
    expect(await files()).toEqual([old]);
  });

  it('deletes the replaced file only once the write has succeeded', async () => {
    const old = await storeLogo(store, TINY_PNG, 'png');
    let seenDuringWrite: string[] = [];
    const result = await changeLogo(
      store,
      checkLogo(TINY_PNG),
      async (name) => {
        seenDuringWrite = await files();
        return { name, oldLogo: logoUrl(old) };
      },
      log,
    );
    expect(seenDuringWrite.sort()).toEqual([old, result.name].sort());
    expect(await files()).toEqual([result.name]);
  });
});
