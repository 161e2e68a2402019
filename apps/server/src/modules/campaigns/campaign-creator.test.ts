import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Campaign,
  CampaignDetail,
  CampaignList,
  CampaignReply,
  UploadReportReply,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import {
  NORMAL,
  createCampaign,
  csvFile,
  numbers,
  postReport,
  putStatus,
} from './campaign-actions.test-fixtures.js';
import { unzip } from '../../../test/zip.js';
import { fund } from './campaigns.test-fixtures.js';

/**
 * No information leak: a campaign's `createdBy` names its creator only to viewers whose
 * scope holds the creator (itself or its subtree; Admin everyone). R1 creates for U1, who sits
 * below S1: S1 and U1 must not learn R1's email, only that a Reseller made it.
 */

let t: TestApp;
let h: Hierarchy;
/** Made by R1 for U1 (below S1). */
let byReseller: string;
/** Made by S1 for U1. */
let bySub: string;
/** Made by the Admin for U1. */
let byAdmin: string;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
  const forU1 = { userEmail: h.u1.user.email };
  byReseller = await createCampaign(t, h.r1.token, numbers(3), forU1);
  bySub = await createCampaign(t, h.s1.token, numbers(4), forU1);
  byAdmin = await createCampaign(t, h.admin, numbers(5), forU1);
});
afterAll(() => t.close());

const ADMIN_EMAIL_LABEL = 'Admin';

async function seenAs(token: string, id: string): Promise<string[]> {
  const get = (url: string) => t.request({ method: 'GET', url, token });
  const list = (await get('/api/campaigns')).json<CampaignList>();
  const byUser = (await get(`/api/campaigns/user/${h.u1.user.email}`)).json<CampaignList>();
  const detail = (await get(`/api/campaigns/${id}`)).json<CampaignDetail>();
  const zip = await get(`/api/campaigns/${id}/download`);
  expect(zip.statusCode).toBe(200);
  const json = JSON.parse(unzip(zip.rawPayload).get('campaign.json')!) as Campaign;
  const find = (l: CampaignList) => l.campaigns.find((c) => c._id === id)?.createdBy ?? '';
  return [find(list), find(byUser), detail.createdBy, json.createdBy];
}

describe('createdBy shows what the viewer may see', () => {
  it('hides a Reseller creator from the Sub-Reseller and the User below it', async () => {
    for (const token of [h.s1.token, h.u1.token]) {
      const shown = await seenAs(token, byReseller);
      expect(shown).toEqual(['Reseller', 'Reseller', 'Reseller', 'Reseller']);
      expect(shown.join()).not.toContain(h.r1.user.email);
    }
  });

  it('hides an Admin creator from everyone below the Admin', async () => {
    for (const token of [h.r1.token, h.s1.token, h.u1.token]) {
      expect(await seenAs(token, byAdmin)).toEqual(Array(4).fill(ADMIN_EMAIL_LABEL));
    }
  });

  it('names a creator within scope: itself, its subtree, and everyone for the Admin', async () => {
    const r1 = h.r1.user.email;
    const s1 = h.s1.user.email;
    expect(await seenAs(h.r1.token, byReseller)).toEqual(Array(4).fill(r1));
    expect(await seenAs(h.r1.token, bySub)).toEqual(Array(4).fill(s1));
    expect(await seenAs(h.s1.token, bySub)).toEqual(Array(4).fill(s1));
    expect(await seenAs(h.admin, byReseller)).toEqual(Array(4).fill(r1));
    expect((await seenAs(h.admin, byAdmin))[0]).toMatch(/@/);
    // The User sees its Sub-Reseller's role only.
    expect(await seenAs(h.u1.token, bySub)).toEqual(Array(4).fill('Sub-Reseller'));
  });

  it('applies to the replies of a status change and a report upload too', async () => {
    const cancel = await putStatus(t, h.u1.token, byReseller, 'Cancellation Requested');
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json<CampaignReply>().campaign.createdBy).toBe('Reseller');
    const report = await postReport(
      t,
      h.admin,
      bySub,
      csvFile(`number,status\n${numbers(1)[0]},Delivered\n`),
    );
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json<UploadReportReply>().campaign.createdBy).toBe(h.s1.user.email);
  });
});
