import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { TASKS } from './job-queue.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterEach(() => {
  t.mailFailure = null;
});
afterAll(() => t.close());

interface JobRow {
  id: string;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  last_error: string | null;
}

async function mailJob(outboxId: string): Promise<JobRow | undefined> {
  const r = await sql<JobRow>`
    SELECT id, attempts, max_attempts, run_at, last_error FROM graphile_worker.jobs
    WHERE key = ${`mail:${outboxId}`}`.execute(t.db);
  return r.rows[0];
}

const outboxRow = (subject: string) =>
  t.db.selectFrom('mail_outbox').selectAll().where('subject', '=', subject).executeTakeFirst();

/** Makes a waiting job due now, instead of sleeping through its backoff. */
async function makeDue(jobId: string) {
  await sql`SELECT graphile_worker.reschedule_jobs(ARRAY[${jobId}]::bigint[], run_at => now())`.execute(
    t.db,
  );
}

describe('the mail outbox', () => {
  it('writes nothing when the transaction that queued the mail rolls back', async () => {
    const failed = t.db.transaction().execute(async (tx) => {
      await t.app.ctx.outbox.queue(tx, { to: 'a@test.local', subject: 'rolled back', text: 'x' });
      throw new Error('the change failed');
    });
    await expect(failed).rejects.toThrow('the change failed');
    expect(await outboxRow('rolled back')).toBeUndefined();
    const jobs = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = ${TASKS.sendMail}`.execute(
      t.db,
    );
    expect(jobs.rows[0]!.n).toBe(0);
  });

  it('sends a committed mail through its job, then clears the body and keeps the record', async () => {
    await t.app.ctx.outbox.queue(t.db, {
      to: 'b@test.local',
      subject: 'sent once',
      text: 'code 1',
    });
    const queued = await outboxRow('sent once');
    expect(queued).toMatchObject({ recipient: 'b@test.local', body: 'code 1', sent_at: null });
    expect(await mailJob(queued!.id)).toBeDefined();

    await t.runDueJobs();
    expect(t.mails.filter((m) => m.subject === 'sent once')).toEqual([
      { to: 'b@test.local', subject: 'sent once', text: 'code 1' },
    ]);
    const sent = await outboxRow('sent once');
    expect(sent?.sent_at).toBeInstanceOf(Date);
    expect(sent?.body).toBeNull();
    expect(await mailJob(queued!.id)).toBeUndefined();
  });

  it('keeps the mail while the transport fails and retries it with backoff until it goes', async () => {
    t.mailFailure = new Error('connect ECONNREFUSED 127.0.0.1:25');
    await t.app.ctx.outbox.queue(t.db, { to: 'c@test.local', subject: 'delayed', text: 'hi' });
    const row = await outboxRow('delayed');
    await t.runDueJobs();

    expect(await outboxRow('delayed')).toMatchObject({
      sent_at: null,
      body: 'hi',
      attempts: 1,
      last_error: 'Error: connect ECONNREFUSED 127.0.0.1:25',
    });
    const job = await mailJob(row!.id);
    expect(job).toMatchObject({ attempts: 1, last_error: 'connect ECONNREFUSED 127.0.0.1:25' });
    // graphile-worker waits exp(attempts) seconds before the next try.
    expect(job!.run_at.getTime()).toBeGreaterThan(Date.now() + 1000);
    await t.runDueJobs();
    expect((await mailJob(row!.id))!.attempts).toBe(1);

    t.mailFailure = null;
    await makeDue(job!.id);
    await t.runDueJobs();
    expect(t.mails.filter((m) => m.subject === 'delayed')).toHaveLength(1);
    expect((await outboxRow('delayed'))?.sent_at).toBeInstanceOf(Date);
  });

  it('gives a mail whose job used up its attempts a new job, so it still goes', async () => {
    t.mailFailure = new Error('SMTP down for days');
    await t.app.ctx.outbox.queue(t.db, { to: 'd@test.local', subject: 'exhausted', text: 'hi' });
    const row = await outboxRow('exhausted');
    await t.runDueJobs();
    const job = await mailJob(row!.id);
    await sql`SELECT graphile_worker.permanently_fail_jobs(ARRAY[${job!.id}]::bigint[], 'gave up')`.execute(
      t.db,
    );
    expect(await t.app.ctx.outbox.requeueStalled()).toBe(1);
    // A mail whose job still has attempts left is not queued twice.
    expect(await t.app.ctx.outbox.requeueStalled()).toBe(0);

    t.mailFailure = null;
    await t.runDueJobs();
    expect(t.mails.filter((m) => m.subject === 'exhausted')).toHaveLength(1);
    expect(await t.app.ctx.outbox.requeueStalled()).toBe(0);
  });

  it('prunes old sent records but never an unsent mail, however old', async () => {
    t.mailFailure = new Error('still down');
    await t.app.ctx.outbox.queue(t.db, { to: 'e@test.local', subject: 'old unsent', text: 'x' });
    await t.runDueJobs();
    await t.db
      .insertInto('mail_outbox')
      .values([
        { recipient: 'f@test.local', subject: 'old sent', body: null, sent_at: new Date(0) },
        { recipient: 'g@test.local', subject: 'new sent', body: null, sent_at: new Date() },
      ])
      .execute();
    await t.db
      .updateTable('mail_outbox')
      .set({ created_at: new Date(0) })
      .where('subject', '=', 'old unsent')
      .execute();

    expect(await t.app.ctx.outbox.pruneSent()).toBe(1);
    expect(await outboxRow('old sent')).toBeUndefined();
    expect(await outboxRow('new sent')).toBeDefined();
    expect(await outboxRow('old unsent')).toMatchObject({ sent_at: null, body: 'x' });
  });
});
