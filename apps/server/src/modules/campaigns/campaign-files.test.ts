import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect, imageSize, sanitiseName, sweepStaleTemps } from './campaign-files.js';
import { MP3, MP4, PDF, jpeg, png } from './campaigns.test-fixtures.js';

describe('campaign media checks', () => {
  it('detects types by their first bytes', () => {
    const riff = (tag: string) =>
      Buffer.concat([Buffer.from('RIFF\0\0\0\0', 'latin1'), Buffer.from(tag, 'latin1')]);
    const m4a = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypM4A ', 'latin1')]);
    expect(
      [
        png(1, 1),
        jpeg(1, 1),
        Buffer.from('GIF89a'),
        riff('WEBP'),
        MP4,
        PDF,
        MP3,
        m4a,
        riff('WAVE'),
      ].map((b) => detect(b)?.ext),
    ).toEqual(['png', 'jpg', 'gif', 'webp', 'mp4', 'pdf', 'mp3', 'm4a', 'wav']);
    expect(detect(Buffer.from('OggS\0', 'latin1'))?.family).toBe('audio');
    expect(detect(Buffer.from('<html>'))).toBeNull();
    expect(detect(Buffer.from('PK\x03\x04', 'latin1'))).toBeNull();
  });

  it('reads dimensions from PNG IHDR and JPEG SOF headers', () => {
    expect(imageSize(png(320, 200), 'png')).toEqual({ width: 320, height: 200 });
    expect(imageSize(jpeg(450, 192), 'jpg')).toEqual({ width: 450, height: 192 });
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xd9]), 'jpg')).toBeNull();
  });

  it('keeps only a safe base name', () => {
    expect(sanitiseName('../../etc/passwd')).toBe('passwd');
    expect(sanitiseName('..\\..\\x.png')).toBe('x.png');
    expect(sanitiseName('evil\u202egnp.exe')).toBe('evilgnp.exe');
    expect(sanitiseName('')).toBe('file');
    expect(sanitiseName(`${'a'.repeat(300)}.png`)).toHaveLength(200);
  });
});

describe('sweepStaleTemps', () => {
  it('removes old temp files only', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-sweep-'));
    try {
      for (const n of ['old.tmp', 'new.tmp', 'kept.png'])
        await fs.writeFile(path.join(dir, n), 'x');
      const past = new Date(Date.now() - 2 * 60 * 60 * 1000);
      await fs.utimes(path.join(dir, 'old.tmp'), past, past);
      await fs.utimes(path.join(dir, 'kept.png'), past, past);
      expect(await sweepStaleTemps(dir, 60 * 60 * 1000)).toBe(1);
      expect((await fs.readdir(dir)).sort()).toEqual(['kept.png', 'new.tmp']);
      expect(await sweepStaleTemps(path.join(dir, 'missing'), 0)).toBe(0);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
