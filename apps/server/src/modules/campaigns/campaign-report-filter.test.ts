import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  matchesReportFilter,
  REPORT_FILTERS,
  server as msg,
  type CampaignReport,
  type ReportEntry,
  type UploadReportReply,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { unzip } from '../../../test/zip.js';
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

/**
 * The report's rows with reason and last change, its status filter and number search, the same
 * filter in the CSV export, and report.csv in the campaign zip (docs/product.md, Campaigns).
 */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 1_000);
});
afterAll(() => t.close());

const get = (token: string | undefined, url: string) => t.request({ method: 'GET', url, token });

async function page(token: string, id: string, query = ''): Promise<CampaignReport> {
  const res = await get(token, `/api/campaigns/${id}/report?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CampaignReport>();
}

/** Every entry of the filter, walking the keyset pages `limit` at a time. */
async function all(id: string, query: string, limit = 2): Promise<ReportEntry[]> {
  const out: ReportEntry[] = [];
  let cursor: string | null = null;
  do {
    const p: CampaignReport = await page(
      h.u1.token,
      id,
      `limit=${limit}&${query}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    out.push(...p.entries);
    cursor = p.nextCursor;
  } while (cursor);
  return out;
}

describe('an uploaded report: filter groups and search', () => {
  const to = numbers(10, '91111111');
  // Every spelling the contract's rule must see through: Read counts as delivered.
  const statuses = [
    'Delivered',
    ' read ',
    'READ',
    'Failed',
    'sent',
    'Not sent',
    'delivered',
    'Undeliverable',
    'Read',
    'pending',
  ];
  let id: string;
  beforeAll(async () => {
    id = await createCampaign(t, h.u1.token, to);
    const rows = to.map((n, i) => `${n},${statuses[i]}`).join('\n');
    const res = await postReport(t, h.admin, id, csvFile(`number,status\n${rows}\n`));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<UploadReportReply>().summary).toEqual({ total: 10, delivered: 5, failed: 5 });
    // The upload trims cells; a padded status can still be stored (the SQL rule trims too).
    await t.db
      .updateTable('campaign_report_entries')
      .set({ status: ' read ' })
      .where('campaign_id', '=', id)
      .where('phone', '=', to[1]!)
      .execute();
  });

  it('each group pages exactly the rows matchesReportFilter keeps; the summary stays whole', async () => {
    for (const filter of REPORT_FILTERS) {
      const want = to
        .map((n, i) => ({ recipient: n, status: statuses[i]! }))
        .filter((e) => matchesReportFilter(e.status, filter));
      const got = await all(id, `status=${filter}`);
      expect(
        got.map((e) => [e.recipient, e.status]),
        filter,
      ).toEqual(want.map((e) => [e.recipient, e.status]));
      expect((await page(h.u1.token, id, `status=${filter}`)).summary).toEqual({
        total: 10,
        delivered: 5,
        failed: 5,
      });
    }
    expect((await all(id, 'status=failed')).length).toBe(5);
    expect((await all(id, 'status=delivered')).length).toBe(5);
  });

  it('an uploaded row without engine data has no reason and no time', async () => {
    for (const e of await all(id, '', 100)) {
      expect([e.reason, e.changedAt]).toEqual([null, null]);
    }
  });

  it('searches digits within the number, combined with the filter', async () => {
    expect((await all(id, 'q=1111103')).map((e) => e.recipient)).toEqual(['9111111103']);
    // "11111110" is in 9111111100 … 9111111109; failed ones among them are 03, 04, 05, 07, 09.
    expect((await all(id, 'status=failed&q=11111110')).map((e) => e.recipient)).toEqual(
      ['03', '04', '05', '07', '09'].map((s) => `91111111${s}`),
    );
    expect(await all(id, 'q=55555')).toEqual([]);
  });

  it('answers 400 with the contract message for a bad search or filter', async () => {
    for (const q of ['abc', '12a', '1234567890123456', '', '+98765', '%25']) {
      const res = await get(h.u1.token, `/api/campaigns/${id}/report?q=${q}`);
      expect([res.statusCode, messageOf(res)], q).toEqual([400, msg.reportSearchInvalid]);
      const csv = await get(h.u1.token, `/api/campaigns/${id}/report/export?q=${q}`);
      expect([csv.statusCode, messageOf(csv)], q).toEqual([400, msg.reportSearchInvalid]);
    }
    for (const url of ['report?status=Failed', 'report?status=x', 'report/export?status=x']) {
      expect((await get(h.u1.token, `/api/campaigns/${id}/${url}`)).statusCode, url).toBe(400);
    }
  });

  it("is scoped: another reseller's campaign is 404, with or without a filter", async () => {
    for (const token of [h.u2.token, h.r2.token, h.u3.token]) {
      for (const url of ['report?status=failed&q=1111', 'report/export?status=failed']) {
        const res = await get(token, `/api/campaigns/${id}/${url}`);
        expect([res.statusCode, messageOf(res)]).toEqual([404, msg.campaignNotFound]);
      }
    }
  });
});

describe('a report the delivery engine built: reason and last change', () => {
  const to = numbers(4, '92222222');
  const at = new Date('2030-01-02T03:04:05.678Z');
  let id: string;
  beforeAll(async () => {
    id = await createCampaign(t, h.u1.token, to);
    // The states a send leaves, written as the engine writes them (delivery-report.repo.ts).
    const set = (phone: string, values: Record<string, string | Date | null>) =>
      t.db
        .updateTable('campaign_recipients')
        .set(values)
        .where('campaign_id', '=', id)
        .where('phone', '=', phone)
        .execute();
    await set(to[0]!, {
      state: 'failed',
      error_code: '131026',
      error_text: 'Message undeliverable',
      state_at: at,
    });
    await set(to[1]!, {
      state: 'read',
      error_code: '131049',
      error_text: 'earlier attempt',
      state_at: at,
    });
    await set(to[2]!, { state: 'failed', error_code: null, error_text: 'Timed out', state_at: at });
    // to[3] was never sent: no state, no time.
    // The report settlement writes from those states (delivery-report.repo.ts, REPORT_STATUS_OF).
    const statuses = ['Failed', 'Read', 'Failed', 'Not sent'];
    await t.db
      .insertInto('campaign_report_entries')
      .values(to.map((phone, i) => ({ campaign_id: id, phone, status: statuses[i]! })))
      .execute();
    await t.db
      .updateTable('campaigns')
      .set({ status: 'Report Generated', report_count: 4, report_delivered: 1 })
      .where('id', '=', id)
      .execute();
  });

  it('gives the provider reason only to rows not delivered, and the state time as ISO', async () => {
    const p = await page(h.u1.token, id);
    expect(p.summary).toEqual({ total: 4, delivered: 1, failed: 3 });
    expect(p.entries).toEqual([
      {
        recipient: to[0],
        status: 'Failed',
        reason: '131026: Message undeliverable',
        changedAt: at.toISOString(),
      },
      { recipient: to[1], status: 'Read', reason: null, changedAt: at.toISOString() },
      { recipient: to[2], status: 'Failed', reason: 'Timed out', changedAt: at.toISOString() },
      { recipient: to[3], status: 'Not sent', reason: null, changedAt: null },
    ]);
  });

  it('exports recipient,status,reason,last_change for the filter and search', async () => {
    const res = await get(
      h.s1.token,
      `/api/campaigns/${id}/report/export?status=failed&q=22222220`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.body).toBe(
      'recipient,status,reason,last_change\r\n' +
        `${to[0]},Failed,131026: Message undeliverable,${at.toISOString()}\r\n` +
        `${to[2]},Failed,Timed out,${at.toISOString()}\r\n` +
        `${to[3]},Not sent,,\r\n`,
    );
    const searched = await get(h.u1.token, `/api/campaigns/${id}/report/export?q=2201`);
    expect(searched.body).toBe(
      `recipient,status,reason,last_change\r\n${to[1]},Read,,${at.toISOString()}\r\n`,
    );
    const whole = await get(h.u1.token, `/api/campaigns/${id}/report/export`);
    expect(whole.body.split('\r\n').length).toBe(1 + 4 + 1);
  });

  it('the campaign zip holds report.csv with every row', async () => {
    const res = await get(h.u1.token, `/api/campaigns/${id}/download`);
    expect(res.statusCode).toBe(200);
    const files = unzip(res.rawPayload);
    expect([...files.keys()].slice(0, 3)).toEqual([
      'campaign.json',
      'recipients.csv',
      'report.csv',
    ]);
    const whole = await get(h.u1.token, `/api/campaigns/${id}/report/export`);
    expect(files.get('report.csv')).toBe(whole.body);
  });

  it('a campaign without a report has no report.csv in its zip', async () => {
    const fresh = await createCampaign(t, h.u1.token, numbers(1, '92333333'));
    const res = await get(h.u1.token, `/api/campaigns/${fresh}/download`);
    expect([...unzip(res.rawPayload).keys()]).toEqual(['campaign.json', 'recipients.csv']);
  });
});
