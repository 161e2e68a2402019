import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignCopyServer, server as msg, type UploadReportReply } from '@herald/contract';
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

/** GET /api/campaigns/:id/numbers: the numbers Clone and the Resend actions copy. */

let t: TestApp;
let h: Hierarchy;
let reported: string;
const many = numbers(8, '96666666');
// Read counts as delivered; anything else (Sent, DND, an empty status) as failed.
const statuses = ['Delivered', ' READ ', 'Failed', 'read', 'Sent', 'delivered', 'DND', 'failed'];
const rowsWith = (keep: (s: string) => boolean) =>
  many.filter((_, i) => keep((statuses[i] ?? '').trim().toLowerCase()));

beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
  // Created out of order: the answer is in number order all the same.
  reported = await createCampaign(t, h.u1.token, [...many].reverse());
  const rows = many.map((n, i) => `${n},${statuses[i]}`).join('\n');
  const res = await postReport(t, h.admin, reported, csvFile(`number,status\n${rows}\n`));
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json<UploadReportReply>().summary).toEqual({ total: 8, delivered: 4, failed: 4 });
});
afterAll(() => t.close());

const get = (token: string | undefined, id: string, query = '') =>
  t.request({ method: 'GET', url: `/api/campaigns/${id}/numbers${query}`, token });
const lines = (body: string) => body.split('\r\n');

describe('GET /api/campaigns/:id/numbers', () => {
  it('answers CSV with the header number, one number a line in number order', async () => {
    const res = await get(h.u1.token, reported, '?which=all');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="campaign_${reported}_all_numbers.csv"`,
    );
    expect(lines(res.body)).toEqual(['number', ...many, '']);
    // No `which` means all.
    expect((await get(h.u1.token, reported)).body).toBe(res.body);
  });

  it('failed is every row not delivered (Read counts as delivered)', async () => {
    const res = await get(h.u1.token, reported, '?which=failed');
    expect(res.statusCode, res.body).toBe(200);
    const failed = rowsWith((s) => s !== 'delivered' && s !== 'read');
    expect(failed).toEqual(['9666666602', '9666666604', '9666666606', '9666666607']);
    expect(lines(res.body)).toEqual(['number', ...failed, '']);
  });

  it('not_read is every row whose status is not Read', async () => {
    const res = await get(h.u1.token, reported, '?which=not_read');
    expect(res.statusCode, res.body).toBe(200);
    const notRead = rowsWith((s) => s !== 'read');
    expect(notRead).toHaveLength(6);
    expect(lines(res.body)).toEqual(['number', ...notRead, '']);
  });

  it('reads past one batch in keyset order', async () => {
    await fund(t, h.admin, h.u1.user.email, NORMAL, 25_000);
    const big = Array.from({ length: 20_005 }, (_, i) => `97${String(i).padStart(8, '0')}`);
    const id = await createCampaign(t, h.u1.token, big);
    const res = await get(h.u1.token, id, '?which=all');
    expect(res.statusCode).toBe(200);
    expect(lines(res.body)).toEqual(['number', ...big, '']);
  });

  it('answers 409 for a report group of a campaign without a report', async () => {
    const fresh = await createCampaign(t, h.u1.token, numbers(2, '96777777'));
    for (const which of ['failed', 'not_read']) {
      const res = await get(h.u1.token, fresh, `?which=${which}`);
      expect([res.statusCode, messageOf(res)]).toEqual([409, campaignCopyServer.noReport]);
    }
    const all = await get(h.u1.token, fresh, '?which=all');
    expect(lines(all.body)).toEqual(['number', '9677777700', '9677777701', '']);
  });

  it('is scoped (404 outside), needs a login and checks its query', async () => {
    for (const token of [h.admin, h.r1.token, h.s1.token]) {
      expect((await get(token, reported, '?which=failed')).statusCode).toBe(200);
    }
    for (const token of [h.u2.token, h.r2.token, h.u3.token]) {
      const res = await get(token, reported, '?which=failed');
      expect([res.statusCode, messageOf(res)]).toEqual([404, msg.campaignNotFound]);
    }
    const unknown = await get(h.admin, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect((await get(undefined, reported)).statusCode).toBe(401);
    for (const q of ['?which=read', '?which=delivered', '?which=', '?which=ALL']) {
      const res = await get(h.u1.token, reported, q);
      expect(res.statusCode, q).toBe(400);
      expect(messageOf(res)).toBeTruthy();
    }
  });
});
