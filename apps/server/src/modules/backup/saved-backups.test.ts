import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { server as msg, type SavedBackupList, type StorageUsage } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { BACKUP_TABLES } from './backup-tables.js';
import { saveBackup } from './backup-store.js';
import { runScheduledBackup } from './scheduled-backup.js';
import { storedBytes, STORAGE_DRIVERS, keysUnder } from '../../../test/storage-fixtures.js';
import { saveToServer } from './backup-save.test-fixtures.js';

/**
 * Saved backups and the file storage figure (docs/product.md, Backup and storage) on both
 * storage drivers: a backup saved through one instance is listed and downloaded through
 * another (on S3, one with a DATA_DIR of its own), BACKUP_KEEP holds, a backup that fails
 * leaves no object, and the Storage screen counts the store's objects.
 */
describe.each(STORAGE_DRIVERS)('saved backups, %s driver', (driver, env) => {
  let t: TestApp;
  let second: FastifyInstance;
  let admin = '';

  beforeAll(async () => {
    t = await createTestApp({ ...env(), BACKUP_KEEP: '2' });
    second = await t.otherInstance();
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  const call = (app: FastifyInstance, method: 'GET' | 'POST', url: string) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${admin}` } });
  const listed = async (app: FastifyInstance) =>
    (await call(app, 'GET', '/api/backup/saved')).json<SavedBackupList>().backups;
  const savedKeys = async () =>
    (await keysUnder(t.app.ctx.files, 'backups/')).map((k) => k.slice('backups/'.length));

  it('a backup saved through one instance is listed and downloaded through the other', async () => {
    const name = await saveToServer(t.app, admin);
    const stored = (await storedBytes(t.app.ctx.files, `backups/${name}`))!;

    const entry = (await listed(second)).find((b) => b.name === name);
    expect(entry).toMatchObject({ name, size: stored.length });
    expect(Math.abs(Date.parse(entry!.createdAt) - Date.now())).toBeLessThan(60_000);
    const dl = await call(second, 'GET', `/api/backup/saved/${name}`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-length']).toBe(String(stored.length));
    expect(dl.headers['content-disposition']).toBe(`attachment; filename="${name}"`);
    expect(dl.rawPayload.equals(stored)).toBe(true);
    expect(XLSX.read(dl.rawPayload).SheetNames).toEqual(BACKUP_TABLES.map((tb) => tb.name));
  });

  it('a saved backup the store does not hold is not found, on every instance', async () => {
    await t.app.ctx.files.put('backups/backup-20240101T000000000Z.xlsx', Buffer.from('PK'));
    await t.app.ctx.files.delete('backups/backup-20240101T000000000Z.xlsx');
    for (const app of [t.app, second]) {
      const res = await call(app, 'GET', '/api/backup/saved/backup-20240101T000000000Z.xlsx');
      expect([res.statusCode, res.json()]).toEqual([404, { message: msg.backupNotFound }]);
      expect((await listed(app)).map((b) => b.name)).not.toContain(
        'backup-20240101T000000000Z.xlsx',
      );
    }
  });

  it('keeps the newest BACKUP_KEEP manual and scheduled backups, and every cleanup one', async () => {
    const cleanupOne = 'backup-20200101T000000000Z-cleanup.xlsx';
    await t.app.ctx.files.put(`backups/${cleanupOne}`, Buffer.from('x'));
    // Saves alternate between the instances: either one prunes what the other saved.
    for (const app of [t.app, second, t.app]) {
      await saveToServer(app, admin);
    }
    const scheduled: string[] = [];
    for (const app of [second, t.app, second]) {
      scheduled.push((await runScheduledBackup(app.ctx)).name);
    }
    const names = await savedKeys();
    expect(names.filter((n) => /^backup-[0-9TZ]+\.xlsx$/.test(n))).toHaveLength(2);
    expect(names.filter((n) => n.endsWith('-scheduled.xlsx')).sort()).toEqual(
      scheduled.slice(1).sort(),
    );
    expect(names).toContain(cleanupOne);
    expect((await listed(second)).map((b) => b.name)).toEqual([...names].sort().reverse());
  });

  it('a backup the store refuses, at once or part way, leaves no object and says why', async () => {
    const before = await savedKeys();
    const refuse = async (_key: string, body: Readable | Buffer) => {
      // Takes the first piece of the workbook and drops the stream, as a store cut off
      // mid-upload would (a local write's pipeline destroys its source when the disk fails).
      if (!Buffer.isBuffer(body))
        for await (const piece of body as AsyncIterable<Buffer>) if (piece) break;
      throw new Error('the store went away');
    };
    const put = vi
      .spyOn(t.app.ctx.files, 'put')
      .mockRejectedValueOnce(new Error('the store refused the write'))
      .mockImplementationOnce(refuse);
    try {
      await expect(saveBackup(t.app.ctx, 'manual')).rejects.toThrow(/store refused/);
      await expect(saveBackup(t.app.ctx, 'manual')).rejects.toThrow(/store went away/);
    } finally {
      put.mockRestore();
    }
    expect(await savedKeys()).toEqual(before);
    // The pool goes on serving: the writer's snapshot was ended.
    const { rows } = await t.app.ctx.pool.query<{ n: number }>('SELECT 1 AS n');
    expect(rows[0]!.n).toBe(1);
  });

  it('the file storage figure is the bytes of the stored objects, whichever instance asks', async () => {
    const usage = async (app: FastifyInstance) => {
      const res = await call(app, 'GET', '/api/admin/storage-usage');
      expect(res.statusCode, res.body).toBe(200);
      return res.json<StorageUsage>().fileStorage.megabytes;
    };
    const store = t.app.ctx.files;
    let bytes = 0;
    for (const prefix of ['uploads/', 'backups/', 'backup-downloads/', 'outbox/']) {
      for await (const obj of store.list(prefix)) bytes += obj.size;
    }
    const MB = 1024 * 1024;
    await store.put('uploads/campaigns/big.bin', Buffer.alloc(3 * MB));
    await store.put('uploads/tickets/small.pdf', Buffer.alloc(MB / 2));
    await store.put('backup-downloads/build.xlsx', Buffer.alloc(MB / 4));
    await store.put('outbox/mail.eml', Buffer.alloc(MB / 8));
    bytes += 3 * MB + MB / 2 + MB / 4 + MB / 8;
    // What lies in a DATA_DIR outside the store (this instance's staging folder) is not counted.
    await fs.mkdir(path.join(t.dataDir, 'tmp'), { recursive: true });
    await fs.writeFile(path.join(t.dataDir, 'tmp', 'staged.bin'), Buffer.alloc(2 * MB));
    const expected = Math.round((bytes / MB) * 100) / 100;
    for (const app of [t.app, second]) expect(await usage(app)).toBe(expected);
  });
});

describe('the local driver', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ STORAGE_URL: '' });
  });
  afterAll(() => t.close());

  it('lists and serves backups already in DATA_DIR/backups/, as they are', async () => {
    const name = 'backup-20250101T000000000Z-scheduled.xlsx';
    await fs.mkdir(path.join(t.dataDir, 'backups'), { recursive: true });
    await fs.writeFile(path.join(t.dataDir, 'backups', name), 'PK old');
    const admin = await t.adminToken();
    const list = await t.request({ url: '/api/backup/saved', token: admin });
    expect(list.json<SavedBackupList>().backups).toEqual([
      expect.objectContaining({ name, size: 6 }),
    ]);
    const dl = await t.request({ url: `/api/backup/saved/${name}`, token: admin });
    expect([dl.statusCode, dl.body]).toEqual([200, 'PK old']);
  });
});
