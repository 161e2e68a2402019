import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAMPAIGN_NAME_MAX,
  defaultCampaignName,
  server as msg,
  type CampaignDetail,
  type CampaignList,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import {
  NORMAL,
  createCampaign,
  entriesOf,
  messageOf,
  notificationsOf,
  numbers,
  setStatus,
} from './campaign-actions.test-fixtures.js';
import { fund, postCampaign } from './campaigns.test-fixtures.js';

/** A campaign's name: given or made from its message, and used wherever a campaign is named. */
let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp({ DELIVERY_DISPATCH: 'off' });
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
});
afterAll(() => t.close());

const detail = async (id: string) =>
  (
    await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token: h.u1.token })
  ).json<CampaignDetail>();

describe('campaign names', () => {
  it('keeps the name given, trimmed, in the list and the details', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(3), { name: '  Diwali offer ' });
    expect((await detail(id)).name).toBe('Diwali offer');
    const list = (
      await t.request({ method: 'GET', url: '/api/campaigns', token: h.u1.token })
    ).json<CampaignList>();
    expect(list.campaigns.find((c) => c._id === id)?.name).toBe('Diwali offer');
  });

  it('names a campaign without one after the first words of its message', async () => {
    const message =
      'Big   festive sale:\nevery shirt and saree at half price until Sunday, only in stores';
    const id = await createCampaign(t, h.u1.token, numbers(2), { message, name: '   ' });
    expect((await detail(id)).name).toBe('Big festive sale: every shirt and saree…');
    expect(defaultCampaignName(message)).toBe('Big festive sale: every shirt and saree…');
    expect(defaultCampaignName('Short one')).toBe('Short one');
  });

  it(`refuses a name longer than ${CAMPAIGN_NAME_MAX} characters, and charges nothing`, async () => {
    const res = await postCampaign(t, h.u1.token, {
      creditType: NORMAL,
      message: 'Hello',
      to: numbers(1).join(','),
      name: 'x'.repeat(CAMPAIGN_NAME_MAX + 1),
    });
    expect([res.statusCode, messageOf(res)]).toEqual([
      400,
      `Campaign name must be at most ${CAMPAIGN_NAME_MAX} characters.`,
    ]);
  });

  it('names the campaign in its notifications and in the ledger reasons of charge and refund', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(4), { name: 'Diwali offer' });
    const named = { name: 'Diwali offer' };
    const before = (await notificationsOf(t, h.u1.user.id)).length;
    await setStatus(t, h.admin, id, 'Approved');
    await setStatus(t, h.admin, id, 'Cancelled');
    const notes = (await notificationsOf(t, h.u1.user.id)).slice(before).map((n) => n.message);
    expect(notes).toEqual([
      msg.notifyCampaignStatus(named, 'Approved'),
      msg.notifyCampaignStatus(named, 'Cancelled'),
    ]);
    expect(notes[0]).toBe("Your campaign 'Diwali offer' is now Approved.");
    expect((await entriesOf(t, id, 'campaign_debit')).map((e) => e.reason)).toEqual([
      "Campaign 'Diwali offer'",
    ]);
    expect((await entriesOf(t, id, 'campaign_refund')).map((e) => e.reason)).toEqual([
      "Refund for campaign 'Diwali offer'",
    ]);
  });
});
