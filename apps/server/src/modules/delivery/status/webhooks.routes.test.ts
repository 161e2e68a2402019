import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { server as msg } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import { TASKS } from '../../../jobs/job-queue.js';
import { buildHierarchy, type Hierarchy } from '../../users/test-fixtures.js';
import {
  NORMAL,
  createCampaign,
  messageOf,
  numbers,
} from '../../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../../campaigns/campaigns.test-fixtures.js';
import {
  counters,
  countsFromRows,
  ev,
  postCallback,
  setDispatch,
  setStates,
  signature,
  statesOf,
} from './status.test-fixtures.js';
import { statusWriterOf } from './webhooks.routes.js';

/** POST /api/delivery/webhooks/:provider: signature, body, batch write, answer after commit. */

const SECRET = 'webhook-test-secret-0123456789';
let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp({ DELIVERY_WEBHOOK_SECRET: SECRET });
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 500);
});
afterAll(() => t.close());

async function sendingCampaign(count: number, prefix: string) {
  const phones = numbers(count, prefix);
  const id = await createCampaign(t, h.u1.token, phones);
  await setStates(t, id, Object.fromEntries(phones.map((p) => [p, 'sending'])));
  return { id, phones };
}

describe('POST /api/delivery/webhooks/:provider', () => {
  it('refuses a missing or wrong signature and an altered body (401), writing nothing', async () => {
    const { id, phones } = await sendingCampaign(2, '94444444');
    const events = [ev(id, phones[0] as string, 'delivered')];
    const body = JSON.stringify({ events });
    const attempts = [
      postCallback(t, events, SECRET, { sign: () => '' }),
      postCallback(t, events, 'another-secret-0123456789'),
      postCallback(t, events, SECRET, {
        sign: () => signature(body, SECRET),
        body: body.replace('delivered', 'read'),
      }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect([res.statusCode, messageOf(res)]).toEqual([401, msg.webhookSignatureInvalid]);
    }
    expect(Object.values(await statesOf(t, id))).toEqual(['sending', 'sending']);
  });

  it('answers 404 for an unknown provider and 400 for a signed body that is not a callback', async () => {
    const unknown = await postCallback(t, [], SECRET, { provider: 'nope' });
    expect([unknown.statusCode, messageOf(unknown)]).toEqual([404, msg.webhookProviderUnknown]);
    for (const body of ['{not json', '{"events":[{"reference":"x"}]}', '[]']) {
      const res = await postCallback(t, [], SECRET, { body });
      expect([res.statusCode, messageOf(res)], body).toEqual([400, msg.webhookBodyInvalid]);
    }
  });

  it('writes signed events without a login; out of order and repeated change nothing twice', async () => {
    const { id, phones } = await sendingCampaign(4, '95555555');
    const [a, b, c, d] = phones as [string, string, string, string];
    const events = [
      ev(id, a, 'delivered', 20),
      ev(id, a, 'sent', 10),
      ev(id, b, 'read', 30),
      ev(id, c, 'failed', 10),
      ev(`${id}`, '90000000000', 'delivered'), // not a recipient: counted, not an error
      { ...ev(id, d, 'sent'), reference: 'garbage' },
    ];
    const unknownBefore = statusWriterOf(t.app.ctx)?.stats.unknown ?? 0;
    const res = await postCallback(t, events, SECRET);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: 6 });
    expect(statusWriterOf(t.app.ctx)?.stats.unknown).toBe(unknownBefore + 2);
    expect(await statesOf(t, id)).toEqual({
      [a]: 'delivered',
      [b]: 'read',
      [c]: 'failed',
      [d]: 'sending',
    });
    expect(await counters(t, id)).toEqual({ sent: 0, delivered: 1, read: 1, failed: 1 });

    // The provider retries the same callback, then sends a stale 'sent' for a read message.
    expect((await postCallback(t, events, SECRET)).statusCode).toBe(200);
    expect((await postCallback(t, [ev(id, b, 'sent', 5)], SECRET)).statusCode).toBe(200);
    expect(await counters(t, id)).toEqual({ sent: 0, delivered: 1, read: 1, failed: 1 });
    expect(await counters(t, id)).toEqual(await countsFromRows(t, id));
  });

  it('answers only after the batch holding its events committed', async () => {
    const { id, phones } = await sendingCampaign(1, '96666666');
    const locker = new pg.Client({ connectionString: t.databaseUrl });
    await locker.connect();
    try {
      // Another writer holds the campaign row: the batch cannot commit until it lets go.
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM campaigns WHERE id = $1 FOR UPDATE', [id]);
      let answered = false;
      const pending = postCallback(t, [ev(id, phones[0] as string, 'delivered')], SECRET).then(
        (r) => {
          answered = true;
          return r;
        },
      );
      await new Promise((r) => setTimeout(r, 400));
      expect(answered).toBe(false);
      await locker.query('COMMIT');
      const res = await pending;
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.values(await statesOf(t, id))).toEqual(['delivered']);
    } finally {
      await locker.end();
    }
  });

  it('answers 503 when the batch cannot be written, so the provider sends it again', async () => {
    const { id, phones } = await sendingCampaign(2, '97777777');
    const [a, b] = phones as [string, string];
    await setStates(t, id, { [a]: 'sent' });
    // The counters' write fails for this campaign (a fault put in for the test): the whole
    // statement, row moves included, is undone.
    await sql`CREATE FUNCTION test_fail_counts() RETURNS trigger LANGUAGE plpgsql AS
                $$ BEGIN RAISE EXCEPTION 'counters unavailable'; END $$`.execute(t.ownerDb);
    await sql`CREATE TRIGGER test_fail_counts BEFORE INSERT ON campaign_delivery_counts
                FOR EACH ROW WHEN (NEW.campaign_id = ${sql.lit(id)}::uuid)
                EXECUTE FUNCTION test_fail_counts()`.execute(t.ownerDb);
    const events = [ev(id, a, 'delivered'), ev(id, b, 'delivered')];
    try {
      const failed = await postCallback(t, events, SECRET);
      expect([failed.statusCode, messageOf(failed)]).toEqual([503, msg.webhookNotWritten]);
      expect(await statesOf(t, id)).toEqual({ [a]: 'sent', [b]: 'sending' });
    } finally {
      await sql`DROP TRIGGER test_fail_counts ON campaign_delivery_counts`.execute(t.ownerDb);
      await sql`DROP FUNCTION test_fail_counts()`.execute(t.ownerDb);
    }

    await setStates(t, id, { [a]: 'sent' });
    expect((await postCallback(t, events, SECRET)).statusCode).toBe(200);
    expect(await statesOf(t, id)).toEqual({ [a]: 'delivered', [b]: 'delivered' });
    expect(await counters(t, id)).toEqual({ sent: 0, delivered: 2, read: 0, failed: 0 });
  });

  it('asks for the settlement of a campaign whose sending ended, not of one still sending', async () => {
    const ended = await sendingCampaign(1, '98888888');
    const running = await sendingCampaign(1, '98888889');
    await setDispatch(t, ended.id, 'Processing', 'done');
    await setDispatch(t, running.id, 'Processing', 'running');
    const res = await postCallback(
      t,
      [
        ev(ended.id, ended.phones[0] as string, 'read'),
        ev(running.id, running.phones[0] as string, 'sent'),
      ],
      SECRET,
    );
    expect(res.statusCode).toBe(200);
    const { rows } = await sql<{ key: string }>`
      SELECT key FROM graphile_worker.jobs WHERE task_identifier = ${TASKS.finalizeCampaign}`.execute(
      t.ownerDb,
    );
    expect(rows.map((r) => r.key)).toEqual([`delivery-finalize:${ended.id}`]);
  });

  it("tells the campaign's open pages (its owner's channel) when its events are written", async () => {
    const { id, phones } = await sendingCampaign(4, '99999990');
    const listener = new pg.Client({ connectionString: t.databaseUrl });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => {
      if (n.channel === 'herald_live' && n.payload?.includes(h.u1.user._id)) heard.push(n.payload);
    });
    await listener.query('LISTEN herald_live');
    try {
      expect(
        (await postCallback(t, [ev(id, phones[0] as string, 'sent')], SECRET)).statusCode,
      ).toBe(200);
      await until(() => heard.length >= 1);
      // More batches at once: those within the interval are told by one NOTIFY after it.
      for (const p of phones.slice(1)) {
        expect((await postCallback(t, [ev(id, p, 'delivered')], SECRET)).statusCode).toBe(200);
      }
      await until(() => heard.length >= 2);
      expect(heard[0]).toMatch(/^c:/);
    } finally {
      await listener.end();
    }
  });
});

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(done()).toBe(true);
}
