import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS, server as msg } from '@herald/contract';
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
import { campaignRows, fund, postCampaign } from './campaigns.test-fixtures.js';

/**
 * Per-user rate limits on campaign creation and report upload, counted atomically
 * before the upload is read. Past the limit: 429 with Retry-After; another user is unaffected.
 */

const CREATE = RATE_LIMITS.campaignCreatePerUser;
const UPLOAD = RATE_LIMITS.reportUploadPerUser;

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  for (const m of [h.u1, h.u2, h.u3]) await fund(t, h.admin, m.user.email, NORMAL, 1000);
});
afterAll(() => t.close());

const fields = (i: number) => ({ creditType: NORMAL, message: `Hi ${i}`, to: numbers(2).join() });

function expect429(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.statusCode, res.body).toBe(429);
  expect(JSON.parse(res.body)).toEqual({ message: msg.tooManyRequests });
  const retry = Number(res.headers['retry-after']);
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(CREATE.windowSeconds);
}

describe('POST /api/campaigns per-user limit', () => {
  it('answers 429 to the request past the limit, even sent at once; others are unaffected', async () => {
    const before = (await campaignRows(t)).campaigns;
    // One more than the limit, all at once: exactly `max` get through.
    const replies = await Promise.all(
      Array.from({ length: CREATE.max + 1 }, (_, i) => postCampaign(t, h.u1.token, fields(i))),
    );
    const codes = replies.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(CREATE.max);
    const refused = replies.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(1);
    expect429(refused[0]!);
    expect((await campaignRows(t)).campaigns).toBe(before + CREATE.max);

    // Still refused, before the body is read: even a malformed upload answers 429, not 400.
    expect429(
      await t.request({
        method: 'POST',
        url: '/api/campaigns',
        token: h.u1.token,
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        payload: 'not multipart at all',
      }),
    );
    // Another user, even in the same subtree, has its own count.
    expect((await postCampaign(t, h.u2.token, fields(0))).statusCode).toBe(201);
  });

  it('does not count a replay of an idempotent request', async () => {
    const key = 'replay-key-1';
    const first = await postCampaign(t, h.u3.token, fields(0), [], key);
    expect(first.statusCode, first.body).toBe(201);
    for (let i = 0; i < CREATE.max + 5; i++) {
      const again = await postCampaign(t, h.u3.token, fields(0), [], key);
      expect(again.statusCode, again.body).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
    }
    // The replays gave their attempts back: the rest of the quota is still there.
    for (let i = 1; i < CREATE.max; i++) {
      expect((await postCampaign(t, h.u3.token, fields(i))).statusCode).toBe(201);
    }
    expect429(await postCampaign(t, h.u3.token, fields(99)));
  });
});

describe('POST /api/campaigns/:id/upload-report per-user limit', () => {
  it('answers 429 past the limit before reading the file', async () => {
    const id = await createCampaign(t, h.u2.token, numbers(2));
    const csv = csvFile(`number,status\n${numbers(1)[0]},Delivered\n`);
    for (let i = 0; i < UPLOAD.max; i++) {
      const res = await postReport(t, h.admin, id, csv);
      expect(res.statusCode, res.body).toBe(200);
    }
    const refused = await postReport(t, h.admin, id, csv);
    expect(refused.statusCode).toBe(429);
    expect(messageOf(refused)).toBe(msg.tooManyRequests);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Refused before the campaign is even looked up: an unknown id answers 429 too.
    const unknown = await postReport(t, h.admin, '00000000-0000-4000-8000-000000000000', csv);
    expect(unknown.statusCode).toBe(429);
    // Other users' campaign creation counts separately.
    expect((await postCampaign(t, h.u2.token, fields(1))).statusCode).toBe(201);
  });
});
