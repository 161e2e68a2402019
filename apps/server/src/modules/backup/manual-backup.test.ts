import type { FastifyInstance } from 'fastify';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { server as msg, type BackupSave, type CurrentBackupSave } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { runDueJobs } from '../../jobs/runner.js';
import { keysUnder, storedBytes, STORAGE_DRIVERS } from '../../../test/storage-fixtures.js';
import { BACKUP_TABLES } from './backup-tables.js';
import { SAVE_QUEUED_STALE_MS, SAVE_STALE_MS } from './manual-backup.js';
import { getSave, postSave, SAVE_URL } from './backup-save.test-fixtures.js';

/**
 * "Save backup to server" on the job runner (migration 0028), on both storage drivers: the POST
 * answers 202 with the queued save, whichever instance runs the job writes the backup under
 * `backups/` in the store, and every instance answers its state; one save at a time across
 * instances (409 while one is queued or building); a save that fails says so and leaves no
 * object; a save whose instance died reads as failed and the next POST starts another.
 */
describe.each(STORAGE_DRIVERS)('save to server, %s driver', (driver, env) => {
  let t: TestApp;
  let second: FastifyInstance;
  let admin = '';

  beforeAll(async () => {
    t = await createTestApp(env());
    // On S3 the second instance shares nothing on disk (harness.ts, otherInstance).
    second = await t.otherInstance();
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  const post = (app: FastifyInstance) =>
    app.inject({ method: 'POST', url: SAVE_URL, headers: { authorization: `Bearer ${admin}` } });
  const current = async (app: FastifyInstance) =>
    (
      await app.inject({ url: SAVE_URL, headers: { authorization: `Bearer ${admin}` } })
    ).json<CurrentBackupSave>().save;
  const backups = async () => (await keysUnder(t.app.ctx.files, 'backups/')).sort();
  const stateInDb = async (id: string) =>
    (
      await t.db
        .selectFrom('backup_saves')
        .select('state')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).state;

  it('queued at once (202), built by the other instance, done on both with the name', async () => {
    const queued = await postSave(t.app, admin);
    expect(queued).toMatchObject({ state: 'queued', rows: 0, name: null, message: null });
    expect(queued.id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await current(second)).toEqual(queued);

    await runDueJobs(second.ctx);
    for (const app of [t.app, second]) {
      const done = await getSave(app, admin, queued.id);
      expect(done.state).toBe('done');
      expect(done.name).toMatch(/^backup-\d{8}T\d{9}Z\.xlsx$/);
      expect(done.message).toBe(msg.backupSaved(done.name!));
      expect(done.rows).toBeGreaterThan(0);
      expect(done.rows).toBe(done.totalRows);
      expect(await current(app)).toBeNull();
    }
    const { name } = await getSave(t.app, admin, queued.id);
    const stored = (await storedBytes(t.app.ctx.files, `backups/${name!}`))!;
    expect(XLSX.read(stored).SheetNames).toEqual(BACKUP_TABLES.map((tb) => tb.name));
  });

  it('one save at a time across instances: 409 while one is queued or building', async () => {
    // Two at once, one through each instance: exactly one is queued.
    const both = await Promise.all([post(t.app), post(second)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([202, 409]);
    const refused = both.find((r) => r.statusCode === 409)!;
    expect(refused.json()).toEqual({ message: msg.backupSaveRunning });
    const queued = both.find((r) => r.statusCode === 202)!.json<BackupSave>();

    // Building (the job has taken it, on another instance): still 409 everywhere.
    await t.db
      .updateTable('backup_saves')
      .set({ state: 'building', heartbeat_at: new Date() })
      .where('id', '=', queued.id)
      .execute();
    for (const app of [t.app, second]) {
      const busy = await post(app);
      expect([busy.statusCode, busy.json()]).toEqual([409, { message: msg.backupSaveRunning }]);
      expect((await current(app))?.state).toBe('building');
    }
    // Ended: the next POST is queued.
    await t.db
      .updateTable('backup_saves')
      .set({ state: 'done', name: 'backup-20200101T000000000Z.xlsx', ended_at: new Date() })
      .where('id', '=', queued.id)
      .execute();
    const next = await postSave(second, admin);
    expect(next.id).not.toBe(queued.id);
    await t.runDueJobs();
    expect((await getSave(t.app, admin, next.id)).state).toBe('done');
  });

  it('a save the store refuses ends failed with the message, leaves no object, frees the lock', async () => {
    const before = await backups();
    const queued = await postSave(t.app, admin);
    const put = vi
      .spyOn(t.app.ctx.files, 'put')
      .mockRejectedValueOnce(new Error('the store refused the write'));
    try {
      await t.runDueJobs();
    } finally {
      put.mockRestore();
    }
    for (const app of [t.app, second]) {
      const failed = await getSave(app, admin, queued.id);
      expect(failed).toMatchObject({ state: 'failed', name: null, message: msg.backupFailed });
    }
    expect(await backups()).toEqual(before);
    const again = await postSave(second, admin);
    await t.runDueJobs();
    expect((await getSave(second, admin, again.id)).state).toBe('done');
  });

  it('a save whose instance died reads as failed; the next POST starts another', async () => {
    const dead = await postSave(t.app, admin);
    // The job took it, then its instance stopped beating.
    await t.db
      .updateTable('backup_saves')
      .set({ state: 'building', heartbeat_at: new Date(Date.now() - SAVE_STALE_MS - 5_000) })
      .where('id', '=', dead.id)
      .execute();
    for (const app of [t.app, second]) {
      expect(await getSave(app, admin, dead.id)).toMatchObject({
        state: 'failed',
        message: msg.backupFailed,
      });
      expect(await current(app)).toBeNull();
    }
    const next = await postSave(second, admin);
    expect(await stateInDb(dead.id)).toBe('failed');
    await t.runDueJobs();
    expect((await getSave(t.app, admin, next.id)).state).toBe('done');
    // The dead one's job, still in the queue, did nothing: it stays failed.
    expect(await stateInDb(dead.id)).toBe('failed');
  });

  it('a save queued but never taken (its runner died) reads as failed after a while', async () => {
    const lost = await postSave(t.app, admin);
    await t.db
      .updateTable('backup_saves')
      .set({ heartbeat_at: new Date(Date.now() - SAVE_QUEUED_STALE_MS - 5_000) })
      .where('id', '=', lost.id)
      .execute();
    expect((await getSave(second, admin, lost.id)).state).toBe('failed');
    // Its late job does not build it: the Admin was told it failed.
    const before = await backups();
    await t.runDueJobs();
    expect(await backups()).toEqual(before);
    expect((await getSave(t.app, admin, lost.id)).state).toBe('failed');
    const next = await postSave(second, admin);
    await t.runDueJobs();
    expect((await getSave(t.app, admin, next.id)).state).toBe('done');
  });
});

describe('save to server: roles and ids', () => {
  let t: TestApp;
  let admin = '';
  const tokens: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    const sub = await t.createUser(reseller.token, { role: 'Sub-Reseller' });
    const user = await t.createUser(reseller.token, { role: 'User' });
    tokens.push(reseller.token, sub.token, user.token);
  });
  afterAll(() => t.close());

  it('only an Admin may queue a save or read one; no token is 401', async () => {
    const queued = await postSave(t.app, admin);
    const routes = [
      { method: 'POST', url: SAVE_URL },
      { method: 'GET', url: SAVE_URL },
      { method: 'GET', url: `${SAVE_URL}/${queued.id}` },
    ] as const;
    for (const r of routes) {
      for (const token of tokens) {
        const res = await t.request({ ...r, token });
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      }
      expect((await t.request({ ...r })).statusCode).toBe(401);
    }
    // The refused POSTs queued nothing: the Admin's save is the one running.
    expect((await getSave(t.app, admin, queued.id)).state).toBe('queued');
    await t.runDueJobs();
  });

  it('an unknown id is 404 with the message; a malformed one is refused', async () => {
    const miss = await t.request({
      url: `${SAVE_URL}/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
      token: admin,
    });
    expect([miss.statusCode, miss.json()]).toEqual([404, { message: msg.backupNotFound }]);
    const bad = await t.request({ url: `${SAVE_URL}/..%2Fx`, token: admin });
    expect([400, 404]).toContain(bad.statusCode);
    expect(bad.json()).toHaveProperty('message');
  });
});
