import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAMPAIGN_DETAIL_RECIPIENTS,
  RECIPIENT_PAGE_DEFAULT,
  RECIPIENT_PAGE_MAX,
  server as msg,
  type CampaignDetail,
  type CampaignRecipients,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { NORMAL, createCampaign, messageOf } from './campaign-actions.test-fixtures.js';
import { fund } from './campaigns.test-fixtures.js';

/**
 * Bounded campaign answers: the detail carries the count and a first slice of the
 * recipients, and GET /api/campaigns/{id}/recipients pages the rest with a keyset cursor.
 */

const BIG = 2345;
/** BIG numbers, sent shuffled: the answers come back in number order. */
const bigList = Array.from({ length: BIG }, (_, i) => String(7_000_000_000 + i * 7));

let t: TestApp;
let h: Hierarchy;
let big: string;
let small: string;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, BIG + 10);
  big = await createCampaign(t, h.u1.token, [...bigList].reverse());
  small = await createCampaign(t, h.u1.token, ['9876543210', '9876543211']);
});
afterAll(() => t.close());

function get(token: string, url: string) {
  return t.request({ method: 'GET', url, token });
}

async function allPages(token: string, id: string, limit?: number) {
  const seen: string[] = [];
  let cursor: string | null = '';
  let pages = 0;
  while (cursor !== null) {
    const q = new URLSearchParams({ cursor });
    if (limit !== undefined) q.set('limit', String(limit));
    const res = await get(token, `/api/campaigns/${id}/recipients?${q.toString()}`);
    expect(res.statusCode, res.body).toBe(200);
    const page: CampaignRecipients = res.json();
    expect(page.recipients.length).toBeLessThanOrEqual(limit ?? RECIPIENT_PAGE_DEFAULT);
    seen.push(...page.recipients);
    cursor = page.nextCursor;
    pages++;
  }
  return { seen, pages };
}

describe('GET /api/campaigns/:id (bounded)', () => {
  it('carries the count and only the first slice of a big campaign, with a cursor for more', async () => {
    const res = await get(h.u1.token, `/api/campaigns/${big}`);
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json<CampaignDetail>();
    expect(detail.recipientCount).toBe(BIG);
    expect(detail).not.toHaveProperty('to');
    expect(detail.recipients).toEqual(bigList.slice(0, CAMPAIGN_DETAIL_RECIPIENTS));
    expect(detail.recipientsNextCursor).toBe(bigList[CAMPAIGN_DETAIL_RECIPIENTS - 1]);
    // 2,345 numbers comma-joined alone are 25 kB; the bounded answer stays a few kB.
    expect(res.body.length).toBeLessThan(4000);

    const rest = await get(
      h.u1.token,
      `/api/campaigns/${big}/recipients?cursor=${detail.recipientsNextCursor}&limit=5`,
    );
    expect(rest.json<CampaignRecipients>().recipients).toEqual(
      bigList.slice(CAMPAIGN_DETAIL_RECIPIENTS, CAMPAIGN_DETAIL_RECIPIENTS + 5),
    );
  });

  it('says when the slice is all of them', async () => {
    const detail = (await get(h.u1.token, `/api/campaigns/${small}`)).json<CampaignDetail>();
    expect(detail.recipients).toEqual(['9876543210', '9876543211']);
    expect(detail.recipientsNextCursor).toBeNull();
  });
});

describe('GET /api/campaigns/:id/recipients', () => {
  it('pages every recipient exactly once, in number order, at the default and other limits', async () => {
    for (const limit of [undefined, 1000, 2345, RECIPIENT_PAGE_MAX]) {
      const { seen, pages } = await allPages(h.s1.token, big, limit);
      expect(seen).toEqual(bigList);
      // One more row read than asked tells the last page it is the last: no empty page after.
      expect(pages).toBe(Math.ceil(BIG / (limit ?? RECIPIENT_PAGE_DEFAULT)));
    }
    expect((await allPages(h.admin, small)).seen).toEqual(['9876543210', '9876543211']);
  });

  it('answers 404 outside scope and for unknown campaigns, as the detail does', async () => {
    for (const [token, id] of [
      [h.r2.token, big],
      [h.u2.token, big],
      [h.u3.token, small],
      [h.admin, '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await get(token, `/api/campaigns/${id}/recipients`);
      expect(res.statusCode).toBe(404);
      expect(messageOf(res)).toBe(msg.campaignNotFound);
    }
  });

  it('answers 400 with a message for a bad cursor or limit', async () => {
    for (const q of [
      'cursor=abc',
      'cursor=%00',
      'cursor=1234567890123456',
      'cursor=-1',
      'cursor=1&cursor=2',
      'limit=0',
      'limit=-5',
      `limit=${RECIPIENT_PAGE_MAX + 1}`,
      'limit=1.5',
      'limit=ten',
    ]) {
      const res = await get(h.u1.token, `/api/campaigns/${big}/recipients?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(typeof messageOf(res), q).toBe('string');
    }
    const cursor = await get(h.u1.token, `/api/campaigns/${big}/recipients?cursor=abc`);
    expect(messageOf(cursor)).toBe(msg.invalidCursor);
  });
});
