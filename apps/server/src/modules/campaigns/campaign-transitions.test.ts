import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAMPAIGN_STATUSES,
  canEverMoveTo,
  canTransition,
  server as msg,
  type CampaignStatus,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import {
  NORMAL,
  campaignRow,
  createCampaign,
  messageOf,
  numbers,
  putStatus,
  setStatus,
} from './campaign-actions.test-fixtures.js';
import { fund } from './campaigns.test-fixtures.js';

/** The server answers every move exactly as the contract's transition table says. */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  // The manual path: with automatic dispatch on, Approved would become Processing at once.
  t = await createTestApp({ DELIVERY_DISPATCH: 'off' });
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
});
afterAll(() => t.close());

/**
 * A walk through every move between two distinct statuses, each taken once: from each status
 * the walk leaves by its unused moves in turn (the complete graph has equal in and out degrees,
 * so Hierholzer's splice of sub-tours closes it back at the start).
 */
function everyMoveOnce(start: CampaignStatus): CampaignStatus[] {
  const unused = new Map(
    CAMPAIGN_STATUSES.map((s) => [s, CAMPAIGN_STATUSES.filter((to) => to !== s)]),
  );
  const stack: CampaignStatus[] = [start];
  const walk: CampaignStatus[] = [];
  while (stack.length > 0) {
    const at = stack[stack.length - 1]!;
    const next = unused.get(at)!.shift();
    if (next) stack.push(next);
    else walk.push(stack.pop()!);
  }
  return walk.reverse();
}

describe('the transition table, enforced', () => {
  it('the Admin makes every move between two distinct statuses', async () => {
    const walk = everyMoveOnce('Submitted');
    expect(walk).toHaveLength(CAMPAIGN_STATUSES.length * (CAMPAIGN_STATUSES.length - 1) + 1);
    const id = await createCampaign(t, h.u1.token, numbers(1));
    for (let i = 1; i < walk.length; i++) {
      const [from, to] = [walk[i - 1]!, walk[i]!];
      expect(canTransition(from, to, 'admin'), `${from} → ${to}`).toBe(true);
      const res = await putStatus(t, h.admin, id, to);
      expect(res.statusCode, `${from} → ${to}: ${res.body}`).toBe(200);
    }
  });

  it('a move outside the table is refused and changes nothing', async () => {
    for (const from of CAMPAIGN_STATUSES) {
      const id = await createCampaign(t, h.u1.token, numbers(1));
      if (from !== 'Submitted') await setStatus(t, h.admin, id, from);
      for (const to of CAMPAIGN_STATUSES) {
        const res = await putStatus(t, h.u1.token, id, to);
        const move = `${from} → ${to}`;
        if (canTransition(from, to, 'owner')) {
          expect(res.statusCode, `${move}: ${res.body}`).toBe(200);
          await setStatus(t, h.admin, id, from);
          continue;
        }
        const expected = !canEverMoveTo(to, 'owner')
          ? [403, msg.campaignCancelOnly]
          : from === to
            ? [409, msg.campaignStatusUnchanged(to)]
            : [409, msg.campaignNotCancellable];
        expect([res.statusCode, messageOf(res)], move).toEqual(expected);
        expect((await campaignRow(t, id)).status, move).toBe(from);
      }
    }
  });
});
