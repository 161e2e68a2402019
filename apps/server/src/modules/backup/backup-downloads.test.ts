import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupDownloadReply, BackupProgress } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { runDueJobs } from '../../jobs/runner.js';
import { BACKUP_TABLES } from './backup-tables.js';
import { downloadsDir, STALE_MS } from './backup-downloads.js';

/**
 * "Generate download" on the job runner (migration 0019): any instance answers the progress and
 * the file, a second request joins a running build, a build whose instance died reads as failed
 * and the next request starts afresh, a build that fails says so.
 */
let t: TestApp;
let second: FastifyInstance;
let admin = '';

beforeAll(async () => {
  t = await createTestApp();
  second = await t.secondInstance();
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

async function get(app: FastifyInstance, url: string) {
  return app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${admin}` } });
}

const idOf = (reply: BackupDownloadReply) => reply.downloadUrl.split('/').pop()!;

describe('generate-download on the job runner', () => {
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
    const file = await get(t.app, reply.downloadUrl);
    expect(file.statusCode).toBe(200);
    expect(XLSX.read(file.rawPayload).SheetNames).toEqual(BACKUP_TABLES.map((tb) => tb.name));
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

  it('a build that cannot write its file ends failed, with the message', async () => {
    const reply = await post();
    // A directory where the file must go: the final rename fails.
    await fs.mkdir(path.join(downloadsDir(t.app.ctx), `${idOf(reply)}.xlsx`), { recursive: true });
    await t.runDueJobs();
    expect((await get(t.app, reply.progressUrl)).json<BackupProgress>().state).toBe('failed');
    const res = await get(t.app, reply.downloadUrl);
    expect([res.statusCode, res.json()]).toEqual([
      500,
      { message: 'The backup could not be built.' },
    ]);
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

  it('keeps a build still running however old, and one that ended recently', async () => {
    await t.runDueJobs();
    await t.db.deleteFrom('backup_downloads').execute();
    // A big build started 40 minutes ago and still beating, with its file on its way.
    await insert('longbuild', 'building', ago(40 * MIN), null);
    const partial = path.join(downloadsDir(t.app.ctx), `longbuild.xlsx.${process.pid}.partial`);
    await fs.mkdir(path.dirname(partial), { recursive: true });
    await fs.writeFile(partial, 'PK');
    await fs.utimes(partial, ago(20 * MIN), ago(20 * MIN));
    // One that took 30 minutes and ended a minute ago, and one that ended 20 minutes ago.
    await insert('justended', 'ready', ago(31 * MIN), ago(MIN));
    await insert('longended', 'ready', ago(40 * MIN), ago(20 * MIN));

    // The next request sweeps, then joins the build that is still running.
    expect(idOf(await post())).toBe('longbuild');
    expect((await ids()).sort()).toEqual(['justended', 'longbuild']);
    await expect(fs.stat(partial)).resolves.toBeTruthy();

    // Its instance died 20 minutes ago: it is swept with its partial file, and a new one starts.
    await t.db
      .updateTable('backup_downloads')
      .set({ heartbeat_at: ago(20 * MIN) })
      .where('id', '=', 'longbuild')
      .execute();
    const next = idOf(await post());
    expect(next).not.toBe('longbuild');
    expect((await ids()).sort()).toEqual(['justended', next].sort());
    await expect(fs.stat(partial)).rejects.toThrow();
    await t.runDueJobs();
  });
});
