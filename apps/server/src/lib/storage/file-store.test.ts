import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { FileStore } from './file-store.js';
import { LocalFileStore } from './local-store.js';
import { S3FileStore } from './s3-store.js';
import { openFileStore } from './open-store.js';
import { parseStorageUrl } from './storage-url.js';
import { TEST_BUCKET, TEST_S3_KEYS, testStorageUrl } from '../../../test/s3-server.js';

/** The same behaviour from both drivers: the local folder and an S3 server on loopback. */

async function bytesOf(store: FileStore, key: string): Promise<Buffer | null> {
  const opened = await store.open(key);
  if (!opened) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keysUnder(store: FileStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const obj of store.list(prefix)) keys.push(obj.key);
  return keys.sort();
}

/** A stream of `total` bytes in 64 KiB pieces, made as it is read; fails after `failAt` bytes. */
function generated(total: number, failAt = Infinity): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= failAt) return this.destroy(new Error('the client went away'));
      if (sent >= total) return this.push(null);
      const n = Math.min(64 * 1024, total - sent);
      const piece = Buffer.alloc(n, sent % 251);
      sent += n;
      this.push(piece);
    },
  });
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const drivers: [string, () => Promise<{ store: FileStore; root?: string }>][] = [
  [
    'local',
    async () => {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-store-'));
      return { store: new LocalFileStore(root), root };
    },
  ],
  [
    's3',
    async () => {
      const target = parseStorageUrl(testStorageUrl(inject('s3Endpoint'), `suite-${randomUUID()}`));
      if (target.driver !== 's3') throw new Error('expected s3');
      return { store: new S3FileStore({ ...target, credentials: TEST_S3_KEYS }) };
    },
  ],
];

describe.each(drivers)('FileStore, %s driver', (_name, make) => {
  let store: FileStore;
  let root: string | undefined;
  beforeAll(async () => {
    ({ store, root } = await make());
  });
  afterAll(async () => {
    await store.close();
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('writes, reads, describes, lists and deletes an object', async () => {
    await store.put('uploads/logos/a.png', Buffer.from('first'));
    await store.put('uploads/logos/b.png', Buffer.from('second!'), { contentType: 'image/png' });
    await store.put('uploads/tickets/c.pdf', Buffer.from('other folder'));

    const opened = await store.open('uploads/logos/b.png');
    expect(opened?.size).toBe(7);
    opened?.stream.destroy();
    expect((await bytesOf(store, 'uploads/logos/a.png'))?.toString()).toBe('first');
    const stat = await store.stat('uploads/logos/a.png');
    expect(stat).toMatchObject({ key: 'uploads/logos/a.png', size: 5 });
    expect(Math.abs((stat?.modified.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(await keysUnder(store, 'uploads/logos/')).toEqual([
      'uploads/logos/a.png',
      'uploads/logos/b.png',
    ]);

    await store.delete('uploads/logos/a.png');
    expect(await store.open('uploads/logos/a.png')).toBeNull();
    expect(await store.stat('uploads/logos/a.png')).toBeNull();
    await store.delete('uploads/logos/a.png'); // already gone: fine
    expect(await keysUnder(store, 'uploads/logos/')).toEqual(['uploads/logos/b.png']);
    expect(await keysUnder(store, 'uploads/nothing-here/')).toEqual([]);
  });

  it('replaces an object whole', async () => {
    await store.put('backups/x.xlsx', Buffer.from('old contents'));
    await store.put('backups/x.xlsx', Buffer.from('new'));
    expect((await bytesOf(store, 'backups/x.xlsx'))?.toString()).toBe('new');
  });

  it('streams a large object both ways, in multipart pieces', async () => {
    const total = 13 * 1024 * 1024 + 123;
    const expected = createHash('sha256');
    for await (const chunk of generated(total)) expected.update(chunk as Buffer);
    await store.put('backup-downloads/big.xlsx', generated(total));
    const opened = await store.open('backup-downloads/big.xlsx');
    expect(opened?.size).toBe(total);
    const got = createHash('sha256');
    let read = 0;
    for await (const chunk of opened?.stream ?? []) {
      got.update(chunk as Buffer);
      read += (chunk as Buffer).length;
    }
    expect(read).toBe(total);
    expect(got.digest('hex')).toBe(expected.digest('hex'));
  });

  it('leaves nothing under the key when the body fails part way', async () => {
    await expect(
      store.put('backups/broken.xlsx', generated(12 * 1024 * 1024, 6 * 1024 * 1024)),
    ).rejects.toThrow(/went away/);
    expect(await store.stat('backups/broken.xlsx')).toBeNull();
    expect(await keysUnder(store, 'backups/')).not.toContain('backups/broken.xlsx');
    if (root) expect(await fs.readdir(path.join(root, '.partial'))).toEqual([]);
  });

  it('moves a staged file into the store', async () => {
    const staged = path.join(os.tmpdir(), `herald-staged-${randomUUID()}`);
    const data = Buffer.from('%PDF-1.4 staged upload');
    await fs.writeFile(staged, data);
    await store.putFile('uploads/tickets/d.pdf', staged);
    expect(sha((await bytesOf(store, 'uploads/tickets/d.pdf')) ?? Buffer.alloc(0))).toBe(sha(data));
    await expect(fs.stat(staged)).rejects.toThrow(/ENOENT/);
  });

  it('refuses keys that could reach another path or object', async () => {
    for (const key of [
      '../x',
      'uploads/../x',
      '.partial/x',
      'uploads//x',
      '',
      '/etc/passwd',
      'a\\b',
    ]) {
      await expect(store.put(key, Buffer.from('x')), key).rejects.toThrow(/not a storage key/);
      await expect(store.open(key), key).rejects.toThrow(/not a storage key/);
    }
  });
});

describe('STORAGE_URL', () => {
  it('is the local folder when unset', () => {
    expect(parseStorageUrl(undefined)).toEqual({ driver: 'local' });
    expect(openFileStore({ driver: 'local' }, '/tmp/x').driver).toBe('local');
  });

  it('reads bucket, prefix, region, endpoint and addressing', () => {
    expect(
      parseStorageUrl('s3://my-bucket/herald/prod?endpoint=http://127.0.0.1:9000&region=eu-west-1'),
    ).toEqual({
      driver: 's3',
      bucket: 'my-bucket',
      prefix: 'herald/prod/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
    });
    expect(parseStorageUrl('s3://my-bucket', { AWS_REGION: 'ap-south-1' })).toEqual({
      driver: 's3',
      bucket: 'my-bucket',
      prefix: '',
      region: 'ap-south-1',
      forcePathStyle: false,
    });
    expect(TEST_BUCKET).toMatch(/^[a-z0-9-]+$/);
  });

  it('refuses what it cannot use, saying why', () => {
    expect(() => parseStorageUrl('https://bucket/x')).toThrow('must be an s3://bucket/prefix URL');
    expect(() => parseStorageUrl('s3://key:secret@bucket')).toThrow(/must not hold credentials/);
    expect(() => parseStorageUrl('s3://B_ad')).toThrow('names no valid bucket');
    expect(() => parseStorageUrl('s3://bucket?endpoint=ftp://x')).toThrow(/endpoint must be/);
    expect(() => parseStorageUrl('s3://bucket?path_style=yes')).toThrow(/path_style/);
  });
});
