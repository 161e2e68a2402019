import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignReport, DeliveryBreakdown, SuppressionPage } from '@herald/contract';
import { startDeliveryApp, type DeliveryTestApp } from '../../../test/delivery-harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { NORMAL, createCampaign, setStatus } from '../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../campaigns/campaigns.test-fixtures.js';
import { balanceOf } from '../credits/credits.test-fixtures.js';
import {
  counters,
  countsFromRows,
  ev,
  postCallback,
  statesOf,
} from './status/status.test-fixtures.js';

/**
 * Opt-outs through the whole engine (docs/delivery.md, Opt-outs): a suppressed number is never
 * sent (the simulator counts what it receives), ends Opted out and is refunded once; the
 * simulator's 131050 and a STOP reply through its signed webhook suppress the number for the
 * next campaign; START takes it off; an unsigned inbound changes nothing.
 */

let t: DeliveryTestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await startDeliveryApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 200);
});
afterAll(() => t.close());

const balance = () => balanceOf(t.ownerDb, h.u1.user._id, NORMAL);

async function statusOf(id: string) {
  const row = await t.ownerDb
    .selectFrom('campaigns')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.status;
}

/** Creates U1's campaign to `to`, approves it and waits until its report is built. */
async function deliver(to: string[]): Promise<string> {
  const id = await createCampaign(t, h.u1.token, to);
  await setStatus(t, h.admin, id, 'Approved');
  const deadline = Date.now() + 60_000;
  while ((await statusOf(id)) !== 'Report Generated') {
    if (Date.now() > deadline) throw new Error(`still ${await statusOf(id)} after 60 s`);
    await t.runDueJobs();
    await new Promise((r) => setTimeout(r, 50));
  }
  return id;
}

async function listOf(token: string) {
  const res = await t.request({ method: 'GET', url: '/api/suppressions?limit=200', token });
  return res.json<SuppressionPage>().suppressions.map((s) => [s.phone, s.source]);
}

const refundsOf = (id: string) =>
  t.ownerDb
    .selectFrom('credit_transactions')
    .select('count')
    .where('campaign_id', '=', id)
    .where('kind', '=', 'campaign_refund')
    .execute();

/** A person replies through the simulator, which signs and posts it to the app's webhook. */
async function reply(from: string, text: string): Promise<number> {
  const res = await fetch(`${t.simulator.url}/v1/inbound`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${t.app.ctx.delivery.webhookSecret}`,
    },
    body: JSON.stringify({ from, text }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { status: number }).status;
}

describe('a suppressed number', () => {
  it('is never sent, shows Opted out, and is refunded once with the failed', async () => {
    const added = await t.request({
      method: 'POST',
      url: '/api/suppressions',
      token: h.u1.token,
      payload: { phone: '9712000013' },
    });
    expect(added.statusCode).toBe(201);
    const to = Array.from({ length: 10 }, (_, i) => `97120000${i + 11}`);
    to[9] = '9712340000'; // the simulator refuses it for good: a failed one beside it
    const start = await balance();
    const accepted = t.simulator.stats().accepted;
    const id = await deliver(to);

    expect(t.simulator.stats().accepted - accepted).toBe(8);
    const states = await statesOf(t, id);
    expect(states['9712000013']).toBe('opted_out');
    expect(states['9712340000']).toBe('failed');
    // Opted out counts with the failed in the counters: every recipient not delivered.
    expect(await counters(t, id)).toEqual(await countsFromRows(t, id));
    expect((await counters(t, id)).failed).toBe(2);

    expect(await balance()).toBe(start - 10 + 2);
    expect(await refundsOf(id)).toEqual([{ count: '2' }]);

    const report = await t.request({
      method: 'GET',
      url: `/api/campaigns/${id}/report?limit=100`,
      token: h.u1.token,
    });
    const entries = report.json<CampaignReport>().entries;
    expect(entries.find((e) => e.recipient === '9712000013')?.status).toBe('Opted out');
    expect(report.json<CampaignReport>().summary).toEqual({ total: 10, delivered: 8, failed: 2 });

    const breakdown = await t.request({
      method: 'GET',
      url: `/api/campaigns/${id}/delivery`,
      token: h.u1.token,
    });
    expect(breakdown.json<DeliveryBreakdown>().states).toContainEqual({
      state: 'opted_out',
      count: 1,
    });
  });
});

describe('the provider’s opt-out (131050)', () => {
  it('fails the recipient with the provider’s text and suppresses the number for the next campaign', async () => {
    const id = await deliver(['9713001050', '9713000001']);
    const row = await t.ownerDb
      .selectFrom('campaign_recipients')
      .select(['state', 'error_code', 'error_text'])
      .where('campaign_id', '=', id)
      .where('phone', '=', '9713001050')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      state: 'failed',
      error_code: '131050',
      error_text: 'This recipient has chosen to stop receiving marketing messages',
    });
    expect(await listOf(h.u1.token)).toContainEqual(['9713001050', 'provider']);

    const accepted = t.simulator.stats().accepted;
    const rejected = t.simulator.stats().rejected;
    const next = await deliver(['9713001050', '9713000002']);
    expect((await statesOf(t, next))['9713001050']).toBe('opted_out');
    expect(t.simulator.stats().accepted - accepted).toBe(1);
    expect(t.simulator.stats().rejected - rejected).toBe(0);
  });

  it('suppresses a number whose status webhook fails it with 131050', async () => {
    const id = await deliver(['9714000001']);
    const failed = { ...ev(id, '9714000001', 'failed', 60_000) };
    failed.error = { code: 131050, title: 'Opted out of marketing messages' };
    const res = await postCallback(t, [failed], t.webhookSecret);
    expect(res.statusCode, res.body).toBe(200);
    expect(await listOf(h.u1.token)).toContainEqual(['9714000001', 'provider']);
  });
});

describe('STOP and START replies', () => {
  it('a STOP through the signed webhook suppresses the number for the next campaign; START removes it', async () => {
    await deliver(['9715000001', '9715000002']);
    expect(await reply('9715000001', '  stop ')).toBe(200);
    expect(await reply('9715000001', 'STOP')).toBe(200); // a repeat changes nothing
    expect(await reply('9715000002', 'please stop calling')).toBe(200); // not a keyword
    expect(await reply('9719999999', 'STOP')).toBe(200); // no campaign reached it
    const list = await listOf(h.u1.token);
    expect(list).toContainEqual(['9715000001', 'keyword']);
    expect(list.map(([p]) => p)).not.toContain('9715000002');
    expect(list.map(([p]) => p)).not.toContain('9719999999');

    const accepted = t.simulator.stats().accepted;
    const next = await deliver(['9715000001', '9715000002']);
    expect((await statesOf(t, next))['9715000001']).toBe('opted_out');
    expect(t.simulator.stats().accepted - accepted).toBe(1);

    expect(await reply('9715000001', 'Start')).toBe(200);
    expect((await listOf(h.u1.token)).map(([p]) => p)).not.toContain('9715000001');
  });

  it('refuses an unsigned or wrongly signed inbound with 401 and changes nothing', async () => {
    await deliver(['9716000001']);
    const body = JSON.stringify({
      messages: [{ from: '9716000001', text: 'STOP', timestamp: new Date().toISOString() }],
    });
    for (const sign of [undefined, 'sha256=00']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/delivery/webhooks/simulator',
        headers: {
          'content-type': 'application/json',
          ...(sign && { 'x-herald-signature': sign }),
        },
        payload: body,
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await listOf(h.u1.token)).map(([p]) => p)).not.toContain('9716000001');
  });
});
