import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type SavedBackupList } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { MANUAL_BACKUP_LOCK } from './manual-backup.repo.js';

/**
 * Save to server runs one at a time across instances (a second answers 409 while one builds),
 * and the manual backups are kept to the newest BACKUP_KEEP like the scheduled ones; a backup
 * saved before a cleanup is never pruned (docs/product.md, Backup and storage).
 */
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ BACKUP_KEEP: '2' });
  admin = await t.adminToken();
});
afterAll(() => t.close());

const save = () => t.request({ method: 'POST', url: '/api/backup/save-to-server', token: admin });
const saved = async () =>
  (await t.request({ url: '/api/backup/saved', token: admin }))
    .json<SavedBackupList>()
    .backups.map((b) => b.name);

describe('POST /api/backup/save-to-server', () => {
  it('answers 409 while another save holds the lock, on any instance', async () => {
    // Another instance's save, as the database sees it: the same advisory lock held elsewhere.
    const other = new pg.Client({ connectionString: t.databaseUrl });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1::int, $2::int)', [...MANUAL_BACKUP_LOCK]);
      const busy = await save();
      expect(busy.statusCode).toBe(409);
      expect(busy.json()).toEqual({ message: msg.backupSaveRunning });
      await other.query('SELECT pg_advisory_unlock($1::int, $2::int)', [...MANUAL_BACKUP_LOCK]);
      expect((await save()).statusCode).toBe(200);
    } finally {
      await other.end();
    }
  });

  it('keeps the newest BACKUP_KEEP manual backups and every cleanup one', async () => {
    await t.app.ctx.files.put('backups/backup-20200101T000000000Z-cleanup.xlsx', Buffer.from('x'));
    for (let i = 0; i < 3; i++) expect((await save()).statusCode).toBe(200);
    const names = await saved();
    expect(names.filter((n) => /^backup-[0-9TZ]+\.xlsx$/.test(n))).toHaveLength(2);
    expect(names).toContain('backup-20200101T000000000Z-cleanup.xlsx');
  });
});
