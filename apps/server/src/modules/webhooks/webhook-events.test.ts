import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookPayload } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { createCampaign, NORMAL, setStatus } from '../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../campaigns/campaigns.test-fixtures.js';
import { openTicket, put } from '../tickets/tickets.test-fixtures.js';
import { scanRecipients } from './recipient-scan.js';
import { makeEndpoint, startReceiver, type Receiver } from './webhooks.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
let rx: Receiver;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', DELIVERY_DISPATCH: 'off' });
  h = await buildHierarchy(t);
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await t.close();
});

/** The events `path` received, signature checked, of one type. */
function eventsOf<T extends WebhookPayload['type']>(path: string, secret: string, type: T) {
  return rx
    .verified(path, secret)
    .filter((p): p is Extract<WebhookPayload, { type: T }> => p.type === type);
}

const phones = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => `9198${String(from + i).padStart(8, '0')}`);

describe('events', () => {
  it('campaign.status_changed on every status move, nothing for an owner without endpoints', async () => {
    const { secret } = await makeEndpoint(t, h.u1.token, rx.url('/campaigns'));
    await fund(t, h.admin, h.u1.user.email, NORMAL, 10);
    await fund(t, h.admin, h.u2.user.email, NORMAL, 10);
    const id = await createCampaign(t, h.u1.token, phones(2));
    await createCampaign(t, h.u2.token, phones(2));
    const before = await t.db.selectFrom('webhook_events').select('id').execute();
    await setStatus(t, h.admin, id, 'Rejected');
    await t.runDueJobs();
    const events = eventsOf('/campaigns', secret, 'campaign.status_changed');
    expect(events.map((e) => e.data)).toEqual([
      { campaignId: id, name: expect.any(String), previousStatus: 'Submitted', status: 'Rejected' },
    ]);
    const after = await t.db.selectFrom('webhook_events').select('id').execute();
    expect(after.length - before.length).toBe(1);
  });

  it('credits.low_balance when a debit crosses the threshold, once', async () => {
    const { secret } = await makeEndpoint(t, h.u3.token, rx.url('/credits'), [
      'credits.low_balance',
    ]);
    const save = await put(t, h.u3.token, '/api/webhooks/settings', { lowBalanceThreshold: 50 });
    expect(save.statusCode, save.body).toBe(200);
    const bad = await put(t, h.u3.token, '/api/webhooks/settings', { lowBalanceThreshold: 0.5 });
    expect(bad.statusCode).toBe(400);
    await fund(t, h.admin, h.u3.user.email, NORMAL, 100);
    await createCampaign(t, h.u3.token, phones(40));
    await t.runDueJobs();
    expect(eventsOf('/credits', secret, 'credits.low_balance')).toEqual([]);
    await createCampaign(t, h.u3.token, phones(20, 100));
    await createCampaign(t, h.u3.token, phones(5, 200));
    await t.runDueJobs();
    expect(eventsOf('/credits', secret, 'credits.low_balance').map((e) => e.data)).toEqual([
      { creditType: NORMAL, balance: 40, threshold: 50 },
    ]);
  });

  it('ticket.updated to the ticket owner on a status change and a reply', async () => {
    const { secret } = await makeEndpoint(t, h.s1.token, rx.url('/tickets'), ['ticket.updated']);
    const ticket = await openTicket(t, h.s1.token, { subject: 'Help', description: 'Please' });
    const status = await put(t, h.admin, `/api/tickets/${ticket._id}/status`, {
      status: 'In Progress',
    });
    expect(status.statusCode, status.body).toBe(200);
    const reply = await put(t, h.admin, `/api/tickets/${ticket._id}/reply`, { message: 'On it' });
    expect(reply.statusCode, reply.body).toBe(200);
    await t.runDueJobs();
    const events = eventsOf('/tickets', secret, 'ticket.updated');
    expect(events.map((e) => [e.data.change, e.data.status, e.data.subject])).toEqual([
      ['status', 'In Progress', 'Help'],
      ['reply', 'In Progress', 'Help'],
    ]);
  });

  it('recipients.updated in batches of 1,000, each change reported once', async () => {
    const { secret } = await makeEndpoint(t, h.r2.token, rx.url('/recipients'), [
      'recipients.updated',
    ]);
    await fund(t, h.admin, h.r2.user.email, NORMAL, 2500);
    const id = await createCampaign(t, h.r2.token, phones(2500));
    // As the engine would: Processing, then every recipient sent in a few batches.
    await t.db
      .updateTable('campaigns')
      .set({ status: 'Processing' })
      .where('id', '=', id)
      .execute();
    // Sending for a watched owner queues the scan now, not at the crontab's next minute.
    const queued = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM graphile_worker.jobs
       WHERE task_identifier = 'webhook-recipients-scan' AND run_at <= now()`.execute(t.db);
    expect(queued.rows[0]!.n).toBe(1);
    expect(await scanRecipients(t.app.ctx)).toBe(0);
    const mark = (state: string, where: ReturnType<typeof sql>) =>
      sql`UPDATE campaign_recipients SET state = ${state}, state_at = now()
           WHERE campaign_id = ${id}::uuid AND ${where}`.execute(t.db);
    await mark('sending', sql`true`);
    expect(await scanRecipients(t.app.ctx)).toBe(0);
    await mark('sent', sql`phone < ${phones(1, 1200)[0]}`);
    await mark('sent', sql`phone >= ${phones(1, 1200)[0]}`);
    expect(await scanRecipients(t.app.ctx)).toBe(3);
    await mark('delivered', sql`phone < ${phones(1, 10)[0]}`);
    expect(await scanRecipients(t.app.ctx)).toBe(1);
    expect(await scanRecipients(t.app.ctx)).toBe(0);
    await t.runDueJobs();
    const events = eventsOf('/recipients', secret, 'recipients.updated');
    expect(events.map((e) => e.data.recipients.length)).toEqual([1000, 1000, 500, 10]);
    const sent = events.slice(0, 3).flatMap((e) => e.data.recipients);
    expect(new Set(sent.map((r) => r.phone)).size).toBe(2500);
    expect(sent.every((r) => r.status === 'sent' && r.errorCode === null)).toBe(true);
    expect(events[3]!.data.recipients.map((r) => r.status)).toEqual(Array(10).fill('delivered'));
    expect(events.every((e) => e.data.campaignId === id)).toBe(true);
  });
});

describe('webhook_xid8', () => {
  it('places a 32-bit xmin in the epoch of the snapshot it is compared with', async () => {
    const { rows } = await sql<{ same: string; before: string; frozen: string }>`
      SELECT webhook_xid8('5'::xid, '8589934600'::xid8)::text AS same,
             webhook_xid8('4294967290'::xid, '8589934600'::xid8)::text AS before,
             webhook_xid8('2'::xid, '8589934600'::xid8)::text AS frozen`.execute(t.db);
    expect(rows[0]).toEqual({ same: '8589934597', before: '8589934586', frozen: '3' });
  });
});
