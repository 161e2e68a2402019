import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { IDEMPOTENCY_KEY_TTL_MS } from '../plugins/idempotency.js';
import { LONGEST_WINDOW_SECONDS } from '../plugins/rate-limit.js';
import { addJob, TASKS, type TaskName } from './job-queue.js';
import { crontab, taskList } from './tasks.js';
import { LOCAL_STORAGE_ENV } from '../../test/storage-fixtures.js';
import { UPLOAD_GRACE_MS } from './upload-sweeps.js';

let t: TestApp;
let adminId: string;
beforeAll(async () => {
  // The local driver: the upload sweep's test sets files' times on disk.
  t = await createTestApp(LOCAL_STORAGE_ENV);
  const admin = await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
  adminId = admin.id;
});
afterAll(() => t.close());

/** Runs one task the way the runner does: a job in the queue, picked up by graphile-worker. */
async function runTask(task: TaskName) {
  await addJob(t.db, task, {});
  await t.runDueJobs();
  const failed = await sql<{ last_error: string | null }>`
    SELECT last_error, attempts, locked_at, run_at, now() AS now FROM graphile_worker.jobs WHERE task_identifier = ${task}`.execute(
    t.db,
  );
  expect(failed.rows, `${task} failed and waits for a retry`).toEqual([]);
}

const ago = (ms: number) => new Date(Date.now() - ms);

describe('the periodic jobs', () => {
  it('has a task for every crontab line and a crontab line for every periodic task', () => {
    const scheduled = crontab.map((c) => c.task).sort();
    const periodic = Object.keys(taskList(t.app.ctx))
      // Jobs asked for by a change (a mail, a campaign's sending and settlement, a backup
      // download, a save to the server, a webhook call, a scheduled campaign's start), not a
      // clock.
      .filter(
        (name) =>
          !(
            [
              TASKS.sendMail,
              TASKS.dispatchCampaign,
              TASKS.finalizeCampaign,
              TASKS.buildBackupDownload,
              TASKS.saveBackupToServer,
              TASKS.deliverWebhook,
              TASKS.startScheduledCampaign,
            ] as string[]
          ).includes(name),
      )
      .sort();
    expect(scheduled).toEqual(periodic);
  });

  it('prune-idempotency-keys deletes keys past their day and keeps the rest', async () => {
    await t.db
      .insertInto('idempotency_keys')
      .values([
        { user_id: adminId, key: 'old', endpoint: 'e', request_hash: 'h' },
        { user_id: adminId, key: 'fresh', endpoint: 'e', request_hash: 'h' },
      ])
      .execute();
    await t.db
      .updateTable('idempotency_keys')
      .set({ created_at: ago(IDEMPOTENCY_KEY_TTL_MS + 60_000) })
      .where('key', '=', 'old')
      .execute();
    await runTask(TASKS.pruneIdempotencyKeys);
    const keys = await t.db.selectFrom('idempotency_keys').select('key').execute();
    expect(keys.map((k) => k.key)).toEqual(['fresh']);
  });

  it('delete-spent-otps deletes used and expired codes and keeps the open one', async () => {
    const row = (otp: string, expires: Date, used: Date | null) => ({
      user_id: adminId,
      otp_hash: otp,
      expires_at: expires,
      used_at: used,
    });
    const soon = new Date(Date.now() + 5 * 60_000);
    await t.db
      .insertInto('password_resets')
      .values([
        row('used', soon, new Date()),
        row('expired', ago(60_000), null),
        row('open', soon, null),
      ])
      .execute();
    await runTask(TASKS.deleteSpentOtps);
    const left = await t.db.selectFrom('password_resets').select('otp_hash').execute();
    expect(left.map((r) => r.otp_hash)).toEqual(['open']);
  });

  it('prune-rate-limits deletes counters whose window ran out and keeps live ones', async () => {
    await t.db
      .insertInto('rate_limits')
      .values([
        { key: 'stale', hits: 3, window_start: ago((LONGEST_WINDOW_SECONDS + 60) * 1000) },
        { key: 'live', hits: 3, window_start: ago(60_000) },
      ])
      .execute();
    await runTask(TASKS.pruneRateLimits);
    const left = await t.db.selectFrom('rate_limits').select('key').execute();
    expect(left.map((r) => r.key)).toEqual(['live']);
  });

  it('sweep-uploads removes old stored files no row names, keeps named and young ones', async () => {
    const store = t.app.ctx.files;
    const usedLogo = '11111111-1111-4111-8111-111111111111.png';
    await t.db
      .updateTable('users')
      .set({ company_logo: `/api/files/logos/${usedLogo}` })
      .where('id', '=', adminId)
      .execute();
    const keys = {
      campaignOrphan: 'uploads/campaigns/00000000-0000-4000-8000-00000000000a.png',
      campaignYoung: 'uploads/campaigns/00000000-0000-4000-8000-00000000000b.png',
      logoOrphan: 'uploads/logos/22222222-2222-4222-8222-222222222222.jpg',
      logoUsed: `uploads/logos/${usedLogo}`,
      logoYoung: 'uploads/logos/44444444-4444-4444-8444-444444444444.png',
      announcementOrphan: 'uploads/announcements/55555555-5555-4555-8555-555555555555.png',
      ticketOrphan: 'uploads/tickets/66666666-6666-4666-8666-666666666666.pdf',
    };
    for (const key of Object.values(keys)) await store.put(key, Buffer.from('x'));
    // Made old on disk: this app is on the local driver, whose keys are paths under DATA_DIR.
    const old = ago(UPLOAD_GRACE_MS + 60_000);
    for (const key of [
      keys.campaignOrphan,
      keys.logoOrphan,
      keys.logoUsed,
      keys.announcementOrphan,
      keys.ticketOrphan,
    ]) {
      await fs.utimes(path.join(t.dataDir, key), old, old);
    }
    await runTask(TASKS.sweepUploads);
    const state = Object.fromEntries(
      await Promise.all(
        Object.entries(keys).map(async ([k, key]) => [k, (await store.stat(key)) !== null]),
      ),
    );
    expect(state).toEqual({
      campaignOrphan: false,
      campaignYoung: true,
      logoOrphan: false,
      logoUsed: true,
      logoYoung: true,
      announcementOrphan: false,
      ticketOrphan: false,
    });
  });
});
