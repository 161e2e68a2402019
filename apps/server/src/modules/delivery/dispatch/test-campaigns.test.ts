import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type Campaign, type CampaignList } from '@herald/contract';
import { startDeliveryApp, type DeliveryTestApp } from '../../../../test/delivery-harness.js';
import { runDueJobs } from '../../../jobs/runner.js';
import { makeKey } from '../../api-keys/api-keys.test-fixtures.js';
import { balanceOf } from '../../credits/credits.test-fixtures.js';
import { senderOfCampaign } from './dispatch-control.repo.js';
import { campaignOf, insertProviderRow } from './dispatch.test-fixtures.js';
import {
  createCampaign,
  messageOf,
  NORMAL,
  setStatus,
} from '../../campaigns/campaign-actions.test-fixtures.js';
import { fund, postCampaign } from '../../campaigns/campaigns.test-fixtures.js';

/**
 * A test key's campaigns (docs/api.md, Test keys): the live checks and answers, nothing charged
 * or refunded, marked test, and sent through the built-in simulator even when their credit type
 * is routed to another provider.
 */

let t: DeliveryTestApp;
let admin: string;
let routedSender: string;
beforeAll(async () => {
  t = await startDeliveryApp();
  admin = await t.adminToken();
  // NORMAL goes through a Jasmin gateway's sender: a live campaign would be sent there.
  const provider = await insertProviderRow(t, 'jasmin');
  const sender = await t.db
    .insertInto('senders')
    .values({ name: 'Gateway', provider_id: provider, address: 'HERALD', rate_per_second: 10 })
    .returning('id')
    .executeTakeFirstOrThrow();
  routedSender = sender.id;
  await t.db
    .insertInto('credit_routes')
    .values({ credit_type: NORMAL, sender_id: sender.id })
    .execute();
});
afterAll(() => t.close());

const ledgerOf = (campaignId: string) =>
  t.db
    .selectFrom('credit_transactions')
    .select('kind')
    .where('campaign_id', '=', campaignId)
    .execute();

async function runUntilSent(id: string) {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    await runDueJobs(t.app.ctx);
    const c = await campaignOf(t, id);
    if (c.dispatch_state === 'done' || c.dispatch_state === 'cancelled') return c;
    await sleep(100);
  }
  throw new Error('the sending did not end in time');
}

async function simulatorSender(): Promise<string> {
  const row = await t.db
    .selectFrom('senders')
    .innerJoin('providers', 'providers.id', 'senders.provider_id')
    .select('senders.id')
    .where('providers.builtin', '=', true)
    .orderBy('senders.is_default', 'desc')
    .orderBy('senders.created_at')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('a test key’s campaign', () => {
  it('charges nothing, is marked test and reaches only the simulator despite the routing', async () => {
    const user = await t.createUser(admin, { role: 'User' });
    await fund(t, admin, user.user.email, NORMAL, 5);
    const key = await makeKey(t, user.token, 'Trial', 'test');
    const before = t.simulator.stats().accepted;

    // 9811110000 is one the simulator never delivers: the settlement's refund case.
    const to = ['9876500001', '9876500002', '9811110000'];
    const id = await createCampaign(t, key.secret, to);
    expect(await balanceOf(t.db, user.user.id)).toBe(5);
    expect(await ledgerOf(id)).toEqual([]);
    const read = await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token: user.token });
    expect(read.json<Campaign>().test).toBe(true);
    const list = await t.request({ method: 'GET', url: '/api/campaigns', token: admin });
    expect(list.json<CampaignList>().campaigns.find((c) => c._id === id)?.test).toBe(true);

    // A live campaign of the same type would go through the routed gateway.
    const live = await createCampaign(t, user.token, ['9876500003']);
    const liveSender = await t.db.transaction().execute((tx) => senderOfCampaign(tx, live));
    expect(liveSender?.id).toBe(routedSender);
    expect(await balanceOf(t.db, user.user.id)).toBe(4);
    await setStatus(t, admin, live, 'Cancelled');

    await setStatus(t, admin, id, 'Approved');
    const sent = await runUntilSent(id);
    expect(sent).toMatchObject({ sender_id: await simulatorSender(), simulated: true });
    expect(sent.failed_count).toBe(1);
    expect(t.simulator.stats().accepted - before).toBe(to.length - 1);
    // The failed one is not refunded: it was never charged.
    expect(await ledgerOf(id)).toEqual([]);
    expect(await balanceOf(t.db, user.user.id)).toBe(5);
  });

  it('refunds nothing when cancelled or rejected, and debits nothing when moved back', async () => {
    const user = await t.createUser(admin, { role: 'User' });
    await fund(t, admin, user.user.email, NORMAL, 2);
    const key = await makeKey(t, user.token, 'Trial', 'test');
    const id = await createCampaign(t, key.secret, ['9876500010', '9876500011']);
    await setStatus(t, admin, id, 'Cancelled');
    await setStatus(t, admin, id, 'Submitted');
    await setStatus(t, admin, id, 'Rejected');
    expect(await ledgerOf(id)).toEqual([]);
    expect(await balanceOf(t.db, user.user.id)).toBe(2);
  });

  it('refuses what a live key would refuse, with the same answers', async () => {
    const user = await t.createUser(admin, { role: 'User' });
    await fund(t, admin, user.user.email, NORMAL, 1);
    const key = await makeKey(t, user.token, 'Trial', 'test');
    const post = (fields: Record<string, string>) =>
      postCampaign(t, key.secret, { creditType: NORMAL, message: 'Hello', ...fields });

    // The balance is checked as for a live key (GOV.UK Notify's test keys do the same).
    const short = await post({ to: '9876500020,9876500021' });
    expect(short.statusCode, short.body).toBe(409);
    expect(messageOf(short)).toBe(msg.insufficientCredits);
    const unknown = await post({ to: '9876500020', creditType: 'Carrier pigeon' });
    expect(unknown.statusCode, unknown.body).toBe(400);
    const none = await post({ to: '12' });
    expect(none.statusCode).toBe(400);
    expect(messageOf(none)).toBe(msg.campaignNoRecipients);
    expect(await balanceOf(t.db, user.user.id)).toBe(1);
  });

  it('is not the same request as a live key’s under one Idempotency-Key', async () => {
    const user = await t.createUser(admin, { role: 'User' });
    await fund(t, admin, user.user.email, NORMAL, 5);
    const key = await makeKey(t, user.token, 'Trial', 'test');
    const fields = { creditType: NORMAL, message: 'Hello', to: '9876500030' };
    const first = await postCampaign(t, user.token, fields, [], 'same-key');
    expect(first.statusCode, first.body).toBe(201);
    const again = await postCampaign(t, key.secret, fields, [], 'same-key');
    expect(again.statusCode, again.body).toBe(409);
  });
});
