import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../../users/test-fixtures.js';
import { NORMAL, createCampaign, numbers } from '../../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../../campaigns/campaigns.test-fixtures.js';
import { balanceOf } from '../../credits/credits.test-fixtures.js';
import { recoverDispatch } from '../delivery-tasks.js';
import { claimBatch } from '../dispatch/dispatch.repo.js';
import { DispatchPresence } from '../dispatch/presence.js';
import { runFinalize } from './finalize.js';
import { setDispatch } from '../status/status.test-fixtures.js';

/**
 * An instance dies with sends in flight and the campaign is cancelled before anyone sends
 * them again: the watchdog makes those rows unsent and asks for the settlement, which refunds
 * them with the never-claimed ones (without it the campaign waited for them forever).
 */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp({ DELIVERY_DISPATCH: 'off' });
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 50);
});
afterAll(() => t.close());

const balance = () => balanceOf(t.ownerDb, h.u1.user._id, NORMAL);

describe('a cancelled campaign whose instance died mid-send', () => {
  it('is settled by the watchdog, the dead sends refunded as unsent, once', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(3, '86666666'));
    const start = await balance();
    await setDispatch(t, id, 'Processing', 'running');
    const presence = new DispatchPresence(t.app.ctx.databaseUrl);
    const key = await presence.enter();
    const claim = await claimBatch(t.app.ctx.db, id, 1, key);
    if (claim.stopped || claim.rows.length !== 1) throw new Error('nothing claimed');
    // The instance dies: its session (and lock) go, its claim stays unwritten on record.
    await presence.leave(false);

    await setDispatch(t, id, 'Cancelled', 'cancelled');
    await runFinalize(t.app.ctx, id);
    const settled = async () =>
      (
        await t.ownerDb
          .selectFrom('campaigns')
          .select(['delivery_settled', 'delivery_refunded'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).delivery_settled;
    expect(await settled()).toBe(false); // still waiting for the dead send

    await recoverDispatch(t.app.ctx);
    const job = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM graphile_worker.jobs
      WHERE key = ${`delivery-finalize:${id}`}`.execute(t.app.ctx.db);
    expect(job.rows[0]?.n).toBe(1);
    const states = await t.ownerDb
      .selectFrom('campaign_recipients')
      .select(['state', 'next_attempt_at'])
      .where('campaign_id', '=', id)
      .where('phone', '=', claim.rows[0]!.phone)
      .executeTakeFirstOrThrow();
    expect(states).toEqual({ state: 'queued', next_attempt_at: null });

    await runFinalize(t.app.ctx, id);
    expect(await settled()).toBe(true);
    expect(await balance()).toBe(start + 3);
    // Nothing is left to give back: a second watchdog pass and settlement change nothing.
    await recoverDispatch(t.app.ctx);
    await runFinalize(t.app.ctx, id);
    expect(await balance()).toBe(start + 3);
  });
});
