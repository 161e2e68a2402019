import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_REPORT_BYTES,
  REPORT_UNKNOWN_LISTED,
  server as msg,
  type UploadReportReply,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { balanceOf, creditBody, postCredit } from '../credits/credits.test-fixtures.js';
import { buildHierarchy, multipart, type Hierarchy } from '../users/test-fixtures.js';
import {
  HELLO,
  NORMAL,
  campaignRow,
  createCampaign,
  csvFile,
  entriesOf,
  messageOf,
  notificationsOf,
  numbers,
  postReport,
  setStatus,
} from './campaign-actions.test-fixtures.js';
import { fund } from './campaigns.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
/** U1's campaign to 9876543200 … 9876543204. */
let id: string;
const [n0, n1, n2, n3, n4] = numbers(5);
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
  id = await createCampaign(t, h.u1.token, numbers(5));
});
afterAll(() => t.close());

async function entries(campaignId: string) {
  return t.db
    .selectFrom('campaign_report_entries')
    .select(['phone', 'status'])
    .where('campaign_id', '=', campaignId)
    .orderBy('phone')
    .execute();
}

async function upload(campaignId: string, text: string | Buffer, filename?: string) {
  const res = await postReport(t, h.admin, campaignId, csvFile(text, filename));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<UploadReportReply>();
}

describe('POST /api/campaigns/:id/upload-report: refusals', () => {
  it('401 without a login, 403 for every role but Admin, 404 for an unknown id', async () => {
    const file = csvFile(`number,status\n${n0},Delivered\n`);
    expect((await postReport(t, undefined, id, file)).statusCode).toBe(401);
    for (const token of [h.u1.token, h.s1.token, h.r1.token, h.r2.token]) {
      expect((await postReport(t, token, id, file)).statusCode).toBe(403);
    }
    const unknown = await postReport(t, h.admin, randomUUID(), file);
    expect([unknown.statusCode, messageOf(unknown)]).toEqual([404, msg.campaignNotFound]);
    expect(await entries(id)).toEqual([]);
  });

  it('400 without a file (no part, or an empty unnamed part as a browser sends it)', async () => {
    const none = await postReport(t, h.admin, id);
    expect([none.statusCode, messageOf(none)]).toEqual([400, msg.reportFileRequired]);
    const empty = await postReport(t, h.admin, id, csvFile('', ''));
    expect([empty.statusCode, messageOf(empty)]).toEqual([400, msg.reportFileRequired]);
    const json = await t.request({
      method: 'POST',
      url: `/api/campaigns/${id}/upload-report`,
      token: h.admin,
      payload: {},
    });
    expect([json.statusCode, messageOf(json)]).toEqual([400, msg.reportFileRequired]);
  });

  it('400 when not a CSV: by name or by content', async () => {
    const cases = [
      csvFile(`number,status\n${n0},Delivered\n`, 'report.txt'),
      csvFile(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])),
      csvFile(Buffer.concat([Buffer.from(`${n0},Deliv`), Buffer.from([0xc3, 0x28])])),
      csvFile(`number,status\n${n0},Deli\u0000vered\n`),
      csvFile(`number,status\n${n0},"Delivered\n`),
      csvFile(Buffer.from('PK\u0003\u0004\u0014\u0000\u0006\u0000', 'latin1'), 'x.CSV'),
    ];
    for (const file of cases) {
      const res = await postReport(t, h.admin, id, file);
      expect([res.statusCode, messageOf(res)], file.filename).toEqual([400, msg.reportFileNotCsv]);
    }
    expect(await entries(id)).toEqual([]);
  });

  it('400 when the file has no data rows', async () => {
    for (const text of ['', 'number,status\r\n', '\n\n , \n', '\uFEFFMobile,Status']) {
      const res = await postReport(t, h.admin, id, csvFile(text));
      expect([res.statusCode, messageOf(res)], JSON.stringify(text)).toEqual([
        400,
        msg.reportFileEmpty,
      ]);
    }
  });

  it('400 when no number of the file is a recipient, and the old report stays', async () => {
    const res = await postReport(t, h.admin, id, csvFile('number,status\n1234567,Delivered\n'));
    expect([res.statusCode, messageOf(res)]).toEqual([400, msg.reportNoRecipients]);
    expect((await campaignRow(t, id)).status).toBe('Submitted');
  });

  it('413 past 64 MB', async () => {
    const big = Buffer.alloc(MAX_REPORT_BYTES + 1, 'a');
    const res = await postReport(t, h.admin, id, csvFile(big));
    expect([res.statusCode, messageOf(res)]).toEqual([413, msg.reportFileTooLarge]);
  });

  it('400 for a second file or another file field', async () => {
    const two = await postReport(t, h.admin, id, csvFile(`${n0},x`), csvFile(`${n1},y`));
    expect(two.statusCode).toBe(400);
    const body = multipart({}, { ...csvFile(`${n0},x`), field: 'other' });
    const other = await t.request({
      method: 'POST',
      url: `/api/campaigns/${id}/upload-report`,
      token: h.admin,
      ...body,
    });
    expect(other.statusCode).toBe(400);
    expect(await entries(id)).toEqual([]);
  });
});

describe('POST /api/campaigns/:id/upload-report: success', () => {
  it('reads headers, BOM, CRLF and quotes; lists unknown numbers; sets Report Generated', async () => {
    const csv =
      '\uFEFFName,Mobile No,Delivery Status\r\n' +
      `"Doe, Jane","+98 765-432 00",Delivered\r\n` +
      `x,${n1}, DELIVERED \r\n` +
      `y,${n2},Failed\r\n` +
      `z,5550001,Delivered\r\n` +
      `w,not a number,Failed\r\n` +
      `v,(987) 654-3203,"Pending, retry"\r\n` +
      `u,${n2},Delivered\r\n` +
      `r,5550001,Failed\r\n`;
    const before = (await notificationsOf(t, h.u1.user.id)).length;
    const reply = await upload(id, csv);
    expect(reply).toMatchObject({
      message: msg.reportUploaded,
      campaign: { _id: id, status: 'Report Generated', reportCount: 4 },
      summary: { total: 4, delivered: 3, failed: 1 },
      unknownCount: 3,
      unknownNumbers: ['5550001', 'not a number'],
    });
    expect(await entries(id)).toEqual([
      { phone: n0, status: 'Delivered' },
      { phone: n1, status: 'DELIVERED' },
      { phone: n2, status: 'Delivered' }, // the last row of a number wins
      { phone: n3, status: 'Pending, retry' },
    ]);
    expect((await notificationsOf(t, h.u1.user.id)).slice(before)).toEqual([
      {
        event_type: 'campaign_report',
        message: msg.notifyCampaignResults(HELLO, {
          delivered: 3,
          total: 4,
          refunded: 0,
          creditType: NORMAL,
        }),
        link: `/campaigns?open=${id}`,
      },
    ]);
  });

  it('a new upload replaces the whole report; a file without a header works', async () => {
    const reply = await upload(id, `${n4},Delivered\n${n1},Failed\n`);
    expect(reply).toMatchObject({
      campaign: { reportCount: 2 },
      summary: { total: 2, delivered: 1, failed: 1 },
      unknownCount: 0,
      unknownNumbers: [],
    });
    expect(await entries(id)).toEqual([
      { phone: n1, status: 'Failed' },
      { phone: n4, status: 'Delivered' },
    ]);
  });

  it('a read message counts as delivered', async () => {
    const reply = await upload(id, `${n1},read\n${n2}, Read \n${n3},Sent\n`);
    expect(reply).toMatchObject({ summary: { total: 3, delivered: 2, failed: 1 } });
  });

  it('column fallbacks: first column for the number, second for the status', async () => {
    await upload(id, `msisdn,result,extra\n${n2},Delivered,x\n`);
    expect(await entries(id)).toEqual([{ phone: n2, status: 'Delivered' }]);
    await upload(id, `Status,id,To\nDelivered,7,${n3}\n`);
    expect(await entries(id)).toEqual([{ phone: n3, status: 'Delivered' }]);
  });

  it('counts every unknown row and lists the first distinct ones', async () => {
    const unknown = Array.from(
      { length: REPORT_UNKNOWN_LISTED + 50 },
      (_, i) => `55500${i + 1000}`,
    );
    const rows = [...unknown, unknown[0], n0].map((n) => `${n},Delivered`).join('\n');
    const reply = await upload(id, `number,status\n${rows}\n`);
    expect(reply.unknownCount).toBe(unknown.length + 1);
    expect(reply.unknownNumbers).toEqual(unknown.slice(0, REPORT_UNKNOWN_LISTED));
    expect(reply.campaign.reportCount).toBe(1);
  });

  it('on a refunded campaign the upload debits again, or fails with 409 and keeps all', async () => {
    const other = await createCampaign(t, h.u1.token, numbers(3, '91234567'));
    await setStatus(t, h.admin, other, 'Cancelled');
    const balance = await balanceOf(t.db, h.u1.user.id, NORMAL);
    const reply = await upload(other, `number,status\n9123456700,Delivered\n`);
    expect(reply.campaign.status).toBe('Report Generated');
    expect(await balanceOf(t.db, h.u1.user.id, NORMAL)).toBe(balance - 3);
    expect(await campaignRow(t, other)).toMatchObject({ charged: true, report_count: 1 });

    await setStatus(t, h.admin, other, 'Rejected');
    const drain = await postCredit(
      t,
      h.admin,
      creditBody(h.u1.user.email, { type: 'Removed', count: balance - 1 }),
    );
    expect(drain.statusCode, drain.body).toBe(201);
    const res = await postReport(t, h.admin, other, csvFile(`9123456701,Failed\n`));
    expect([res.statusCode, messageOf(res)]).toEqual([409, msg.insufficientCredits]);
    expect(await campaignRow(t, other)).toMatchObject({
      status: 'Rejected',
      charged: false,
      report_count: 1,
    });
    expect(await entries(other)).toEqual([{ phone: '9123456700', status: 'Delivered' }]);
    expect(await entriesOf(t, other, 'campaign_debit')).toHaveLength(2);
    await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
  });
});
