import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLEANUP_CONFIRM_WORD,
  type BackupDownloadReply,
  type BackupProgress,
  type CleanupReply,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import {
  lastAuditId,
  expectNoEntrySince,
  onlyEntrySince,
  adminUserId,
} from '../audit/audit.test-fixtures.js';
import { postSave, saveToServer, SAVE_URL } from './backup-save.test-fixtures.js';

/** The audit entries of backups and of a cleanup run by the Admin (docs/audit.md). */

let t: TestApp;
let admin: string;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  adminId = await adminUserId(t.db);
});
afterAll(() => t.close());

const byAdmin = () => ({ actor_user_id: adminId, actor_role: 'Admin', subject_user_id: null });

describe('backups', () => {
  it('a save to the server writes backup.create; one while another runs writes none', async () => {
    let mark = await lastAuditId(t.db);
    const queued = await postSave(t.app, admin);
    const row = await onlyEntrySince(t.db, mark, 'backup.create');
    expect(row).toMatchObject({ ...byAdmin(), target_type: 'backup', target_id: queued.id });
    mark = await lastAuditId(t.db);
    const again = await t.request({ method: 'POST', url: SAVE_URL, token: admin });
    expect(again.statusCode).toBe(409);
    await expectNoEntrySince(t.db, mark);
    await t.runDueJobs();
  });

  it('downloading a saved backup writes backup.download; an unknown one writes none', async () => {
    const name = await saveToServer(t.app, admin);
    let mark = await lastAuditId(t.db);
    const res = await t.request({ method: 'GET', url: `/api/backup/saved/${name}`, token: admin });
    expect(res.statusCode).toBe(200);
    const row = await onlyEntrySince(t.db, mark, 'backup.download');
    expect(row).toMatchObject({ ...byAdmin(), target_id: name, target_label: name });
    mark = await lastAuditId(t.db);
    const missing = name.replace(/\d/, (d) => String((Number(d) + 1) % 10));
    const gone = await t.request({
      method: 'GET',
      url: `/api/backup/saved/${missing}`,
      token: admin,
    });
    expect(gone.statusCode).toBe(404);
    await expectNoEntrySince(t.db, mark);
  });

  it('fetching a generated download writes backup.download; asking for it writes none', async () => {
    const mark = await lastAuditId(t.db);
    const started = await t.request({
      method: 'POST',
      url: '/api/backup/generate-download',
      token: admin,
    });
    const { downloadUrl, progressUrl } = started.json<BackupDownloadReply>();
    await t.runDueJobs();
    let state: BackupProgress['state'] = 'building';
    for (let polls = 0; state !== 'ready' && polls < 500; polls++) {
      await new Promise((r) => setTimeout(r, 20));
      const p = await t.request({ method: 'GET', url: progressUrl, token: admin });
      state = p.json<BackupProgress>().state;
    }
    await expectNoEntrySince(t.db, mark);
    const file = await t.request({ method: 'GET', url: downloadUrl, token: admin });
    expect(file.statusCode).toBe(200);
    const row = await onlyEntrySince(t.db, mark, 'backup.download');
    expect(row).toMatchObject({ ...byAdmin(), target_id: downloadUrl.split('/').at(-1) });
    expect(row.target_label).toMatch(/\.xlsx$/);
  });
});

describe('cleanup', () => {
  const cleanup = (token: string, payload: object) =>
    t.request({
      method: 'DELETE',
      url: '/api/data/cleanup',
      token,
      payload: { confirm: CLEANUP_CONFIRM_WORD, ...payload },
    });

  it('a cleanup writes cleanup.run with what was asked, removed and saved; a refused one none', async () => {
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    const range = { dataType: 'campaigns', fromDate: '2020-01-01', toDate: '2020-01-31' };
    let mark = await lastAuditId(t.db);
    expect((await cleanup(reseller.token, range)).statusCode).toBe(403);
    expect((await cleanup(admin, { ...range, confirm: 'no' })).statusCode).toBe(400);
    await expectNoEntrySince(t.db, mark);

    mark = await lastAuditId(t.db);
    const res = await cleanup(admin, range);
    expect(res.statusCode, res.body).toBe(200);
    const { backup, deleted } = res.json<CleanupReply>();
    const row = await onlyEntrySince(t.db, mark, 'cleanup.run');
    expect(row).toMatchObject({ ...byAdmin(), target_type: 'cleanup', target_label: 'campaigns' });
    expect(row.changes).toEqual({
      dataType: { before: null, after: 'campaigns' },
      fromDate: { before: null, after: '2020-01-01' },
      toDate: { before: null, after: '2020-01-31' },
      deleted: { before: null, after: deleted },
      kept: { before: null, after: 0 },
      backup: { before: null, after: backup },
    });
  });
});
