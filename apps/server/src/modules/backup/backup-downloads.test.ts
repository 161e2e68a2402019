import type { FastifyInstance } from 'fastify';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { server as msg, type BackupDownloadReply, type BackupProgress } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { runDueJobs } from '../../jobs/runner.js';
import type { FileStore, StoredObject } from '../../lib/storage/file-store.js';
import { BACKUP_TABLES } from './backup-tables.js';
import { downloadKey, STALE_MS } from './backup-downloads.js';
import { STORAGE_DRIVERS, keysUnder } from '../../../test/storage-fixtures.js';

/**
 * "Generate download" on the job runner (migration 0019), on both storage drivers: any instance
 * answers the progress and the file (on S3 even one with a DATA_DIR of its own, as the workbook
 * is in the store), a second request joins a running build, a build whose instance died reads
 * as failed and the next request starts afresh, a build that fails says so and leaves no
 * object, a ready build whose object is gone answers 410.
 */
describe.each(STORAGE_DRIVERS)('generate-download, %s driver', (driver, env) => {
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

  async function post(app: FastifyInstance = t.app): Promise<BackupDownloadReply> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/backup/generate-download',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<BackupDownloadReply>();
  }

  const get = (app: FastifyInstance, url: string) =>
    app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${admin}` } });

  const idOf = (reply: BackupDownloadReply) => reply.downloadUrl.split('/').pop()!;

  describe('builds', () => {
    it('is built by whichever instance runs the job; both answer its progress and its file', async () => {
      const reply = await post(t.app);
      const before = (await get(second, reply.progressUrl)).json<BackupProgress>();
      expect(before).toMatchObject({ state: 'building', rows: 0 });
      expect(before.totalRows).toBeGreaterThan(0);

      await runDueJobs(second.ctx);
      for (const app of [t.app, second]) {
        const p = (await get(app, reply.progressUrl)).json<BackupProgress>();
        expect(p.state).toBe('ready');
        expect(p.rows).toBe(p.totalRows);
      }
      for (const app of [t.app, second]) {
        const file = await get(app, reply.downloadUrl);
        expect(file.statusCode).toBe(200);
        expect(file.headers['content-length']).toBe(String(file.rawPayload.length));
        expect(XLSX.read(file.rawPayload).SheetNames).toEqual(BACKUP_TABLES.map((tb) => tb.name));
      }
      expect(await keysUnder(t.app.ctx.files, 'backup-downloads/')).toContain(
        downloadKey(idOf(reply)),
      );
    });

    it('a second request while a build runs joins it', async () => {
      const first = await post(t.app);
      const again = await post(second);
      expect(again).toEqual(first);
      await t.runDueJobs();
      expect((await get(second, first.downloadUrl)).statusCode).toBe(200);
      // Ended: the next request builds anew.
      expect(idOf(await post())).not.toBe(idOf(first));
      await t.runDueJobs();
    });

    it('a build whose instance died reads as failed; the next request starts another', async () => {
      const dead = await post();
      // Its instance stopped beating (killed before the job ran).
      await t.db
        .updateTable('backup_downloads')
        .set({ heartbeat_at: new Date(Date.now() - STALE_MS - 5_000) })
        .where('id', '=', idOf(dead))
        .execute();
      expect((await get(t.app, dead.progressUrl)).json<BackupProgress>().state).toBe('failed');
      const res = await get(second, dead.downloadUrl);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'The backup could not be built.' });

      const next = await post(second);
      expect(idOf(next)).not.toBe(idOf(dead));
      await t.runDueJobs();
      expect((await get(t.app, next.progressUrl)).json<BackupProgress>().state).toBe('ready');
      // The dead one's late job does nothing: it was ended as failed.
      const row = await t.db
        .selectFrom('backup_downloads')
        .select('state')
        .where('id', '=', idOf(dead))
        .executeTakeFirstOrThrow();
      expect(row.state).toBe('failed');
    });

    it('a build the store refuses ends failed, with the message, and leaves no object', async () => {
      const reply = await post();
      const put = vi
        .spyOn(t.app.ctx.files, 'put')
        .mockRejectedValueOnce(new Error('the store refused the write'));
      try {
        await t.runDueJobs();
      } finally {
        put.mockRestore();
      }
      expect((await get(t.app, reply.progressUrl)).json<BackupProgress>().state).toBe('failed');
      const res = await get(second, reply.downloadUrl);
      expect([res.statusCode, res.json()]).toEqual([500, { message: msg.backupFailed }]);
      expect(await t.app.ctx.files.stat(downloadKey(idOf(reply)))).toBeNull();
    });

    it('a ready build whose object the store lost answers 410, on every instance', async () => {
      const reply = await post();
      await t.runDueJobs();
      await t.app.ctx.files.delete(downloadKey(idOf(reply)));
      for (const app of [t.app, second]) {
        const res = await get(app, reply.downloadUrl);
        expect([res.statusCode, res.json()]).toEqual([410, { message: msg.fileGone }]);
      }
    });
  });

  describe('the sweep of old builds', () => {
    const ago = (ms: number) => new Date(Date.now() - ms);
    const MIN = 60_000;
    const ids = async () =>
      (await t.db.selectFrom('backup_downloads').select('id').execute()).map((r) => r.id);
    const insert = (id: string, state: 'building' | 'ready', created: Date, ended: Date | null) =>
      t.db
        .insertInto('backup_downloads')
        .values({
          id,
          state,
          total_rows: 1,
          filename: `${id}.xlsx`,
          created_at: created,
          heartbeat_at: ended ?? new Date(),
          ended_at: ended,
        })
        .execute();

    /** The store's objects as they will look 20 minutes from now (no store can backdate one). */
    function ageObjects(store: FileStore) {
      const real = store.list.bind(store);
      return vi.spyOn(store, 'list').mockImplementation(async function* (prefix: string) {
        for await (const obj of real(prefix)) {
          yield { ...obj, modified: new Date(obj.modified.getTime() - 20 * MIN) } as StoredObject;
        }
      });
    }

    it('keeps a build still running however old, and one that ended recently', async () => {
      await t.runDueJobs();
      await t.db.deleteFrom('backup_downloads').execute();
      const store = t.app.ctx.files;
      for (const key of await keysUnder(store, 'backup-downloads/')) await store.delete(key);
      // A big build started 40 minutes ago and still beating; one that took 30 minutes and
      // ended a minute ago; one that ended 20 minutes ago; and an object no row names (a crash).
      await insert('longbuild', 'building', ago(40 * MIN), null);
      await insert('justended', 'ready', ago(31 * MIN), ago(MIN));
      await insert('longended', 'ready', ago(40 * MIN), ago(20 * MIN));
      for (const id of ['longbuild', 'justended', 'longended', 'stray']) {
        await store.put(downloadKey(id), Buffer.from('PK'));
      }
      const aged = [ageObjects(store), ageObjects(second.ctx.files)];
      try {
        // The next request sweeps, then joins the build that is still running.
        expect(idOf(await post())).toBe('longbuild');
        expect((await ids()).sort()).toEqual(['justended', 'longbuild']);
        expect(await keysUnder(store, 'backup-downloads/')).toEqual(
          ['justended', 'longbuild'].map(downloadKey),
        );

        // Its instance died 20 minutes ago: it is swept with its object, and a new one starts
        // (swept by the other instance: the store is the same).
        await t.db
          .updateTable('backup_downloads')
          .set({ heartbeat_at: ago(20 * MIN) })
          .where('id', '=', 'longbuild')
          .execute();
        const next = idOf(await post(second));
        expect(next).not.toBe('longbuild');
        expect((await ids()).sort()).toEqual(['justended', next].sort());
        expect(await keysUnder(store, 'backup-downloads/')).toEqual([downloadKey('justended')]);
      } finally {
        for (const spy of aged) spy.mockRestore();
      }
      await t.runDueJobs();
    });
  });
});
