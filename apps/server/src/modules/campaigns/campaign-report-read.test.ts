import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type CampaignReport, type UploadReportReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import {
  NORMAL,
  createCampaign,
  csvFile,
  messageOf,
  numbers,
  postReport,
} from './campaign-actions.test-fixtures.js';
import { fund } from './campaigns.test-fixtures.js';

/** Reading delivery reports: the paged view and the CSV export, for whoever sees the campaign. */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
});
afterAll(() => t.close());

async function upload(campaignId: string, text: string) {
  const res = await postReport(t, h.admin, campaignId, csvFile(text));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<UploadReportReply>();
}

describe('GET /api/campaigns/:id/report', () => {
  let reported: string;
  const many = numbers(25, '93333333');
  beforeAll(async () => {
    reported = await createCampaign(t, h.u1.token, many);
    const rows = many.map((n, i) => `${n},${i % 5 === 0 ? 'Failed' : ' delivered'}`).join('\n');
    await upload(reported, `phone,status\n${rows}\n`);
  });

  const get = (token: string | undefined, url: string) => t.request({ method: 'GET', url, token });

  it('pages in number order with a keyset cursor; the summary covers every entry', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${cursor}` : '';
      const res = await get(h.u1.token, `/api/campaigns/${reported}/report?limit=10${q}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<CampaignReport>();
      expect(page.summary).toEqual({ total: 25, delivered: 20, failed: 5 });
      seen.push(...page.entries.map((e) => e.recipient));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...many].sort());
  });

  it('a campaign without a report has an empty one', async () => {
    const fresh = await createCampaign(t, h.u1.token, numbers(1));
    const res = await get(h.u1.token, `/api/campaigns/${fresh}/report`);
    expect(res.json<CampaignReport>()).toEqual({
      summary: { total: 0, delivered: 0, failed: 0 },
      entries: [],
      nextCursor: null,
    });
  });

  it('is scoped (404 outside), needs a login and checks its query', async () => {
    for (const token of [h.admin, h.r1.token, h.s1.token]) {
      expect((await get(token, `/api/campaigns/${reported}/report`)).statusCode).toBe(200);
    }
    for (const token of [h.u2.token, h.r2.token, h.u3.token]) {
      const res = await get(token, `/api/campaigns/${reported}/report`);
      expect([res.statusCode, messageOf(res)]).toEqual([404, msg.campaignNotFound]);
    }
    expect((await get(undefined, `/api/campaigns/${reported}/report`)).statusCode).toBe(401);
    for (const q of ['limit=0', 'limit=5001', 'cursor=abc', 'cursor=1234567890123456']) {
      const res = await get(h.admin, `/api/campaigns/${reported}/report?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
  });
});

describe('GET /api/campaigns/:id/report/export', () => {
  it('streams recipient,status,reason,last_change as an attachment, formulas neutralised', async () => {
    const c = await createCampaign(t, h.u1.token, numbers(3, '94444444'));
    await upload(
      c,
      'number,status\n9444444400,=HYPERLINK("http://evil")\n9444444401,"a,b"\n9444444402,Delivered\n',
    );
    const res = await t.request({
      method: 'GET',
      url: `/api/campaigns/${c}/report/export`,
      token: h.s1.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="campaign_${c}_report.csv"`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe(
      'recipient,status,reason,last_change\r\n' +
        '9444444400,"\'=HYPERLINK(""http://evil"")",,\r\n' +
        '9444444401,"a,b",,\r\n' +
        '9444444402,Delivered,,\r\n',
    );
    const outside = await t.request({
      method: 'GET',
      url: `/api/campaigns/${c}/report/export`,
      token: h.u2.token,
    });
    expect([outside.statusCode, messageOf(outside)]).toEqual([404, msg.campaignNotFound]);
    const anon = await t.request({ method: 'GET', url: `/api/campaigns/${c}/report/export` });
    expect(anon.statusCode).toBe(401);
  });

  it('exports every row across batches', async () => {
    // More than one batch of 10,000.
    const many = Array.from({ length: 10_050 }, (_, i) => `95555${String(i).padStart(5, '0')}`);
    await fund(t, h.admin, h.u1.user.email, NORMAL, many.length);
    const c = await createCampaign(t, h.u1.token, many);
    await upload(c, many.map((n) => `${n},Delivered`).join('\n'));
    const res = await t.request({
      method: 'GET',
      url: `/api/campaigns/${c}/report/export`,
      token: h.admin,
    });
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(many.length + 1);
    expect(lines.slice(1)).toEqual([...many].sort().map((n) => `${n},Delivered,,`));
  });
});
