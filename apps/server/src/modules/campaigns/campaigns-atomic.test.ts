import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type CreateCampaignReply, type CreditType } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { balanceOf, countEntries } from '../credits/credits.test-fixtures.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import {
  MP4,
  bigPng,
  campaignRows,
  file,
  fund,
  png,
  postCampaign,
  stagedFiles,
  storedFiles,
} from './campaigns.test-fixtures.js';

const NORMAL: CreditType = 'Normal Message - domestic';
const CTA: CreditType = 'With CTA - domestic';
const MB = 1024 * 1024;

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 10);
  await fund(t, h.admin, h.u1.user.email, CTA, 10);
});
afterAll(() => t.close());

const message = (res: { json: <T>() => T }) => res.json<{ message: string }>().message;
const plain = (over: Record<string, string> = {}) => ({
  creditType: NORMAL,
  message: 'Hello',
  to: '9876543210',
  ...over,
});

/** Nothing of a failed request is left: no rows, no files, no ledger entry, same balance. */
async function expectNothingLeft(before: Awaited<ReturnType<typeof snapshot>>) {
  expect(await campaignRows(t)).toEqual(before.rows);
  expect(await storedFiles(t)).toEqual(before.files);
  expect(await stagedFiles(t)).toEqual([]);
  expect(await countEntries(t.db)).toBe(before.entries);
  expect(await balanceOf(t.db, h.u1.user.id, NORMAL)).toBe(before.balance);
}

async function snapshot() {
  return {
    rows: await campaignRows(t),
    entries: await countEntries(t.db),
    balance: await balanceOf(t.db, h.u1.user.id, NORMAL),
    files: await storedFiles(t),
  };
}

describe('POST /api/campaigns: all or nothing', () => {
  it("a file over its limit answers the contract's message (3 MB and 5 MB) and keeps nothing", async () => {
    const before = await snapshot();
    const image = await postCampaign(t, h.u1.token, plain(), [file('images', bigPng(3 * MB + 1))]);
    expect([image.statusCode, message(image)]).toEqual([413, msg.campaignFileTooLarge(3)]);
    const video = await postCampaign(t, h.u1.token, plain(), [
      file('video', Buffer.concat([MP4, Buffer.alloc(5 * MB + 1 - MP4.length)])),
    ]);
    expect([video.statusCode, message(video)]).toEqual([413, msg.campaignFileTooLarge(5)]);
    await expectNothingLeft(before);
  });

  it('a request failing half-way (oversized third image) deletes the files it wrote', async () => {
    const before = await snapshot();
    const res = await postCampaign(t, h.u1.token, plain(), [
      file('images', png(10, 10)),
      file('images', png(20, 20)),
      file('images', bigPng(3 * MB + 10)),
    ]);
    expect(res.statusCode).toBe(413);
    await expectNothingLeft(before);
  });

  it('a fourth image is refused and nothing is kept', async () => {
    const before = await snapshot();
    const four = [1, 2, 3, 4].map((n) => file('images', png(n, n)));
    const res = await postCampaign(t, h.u1.token, plain(), four);
    expect([res.statusCode, message(res)]).toEqual([400, msg.campaignTooManyImages]);
    await expectNothingLeft(before);
  });

  it('a file failing its content check after upload deletes the others too', async () => {
    const before = await snapshot();
    const res = await postCampaign(t, h.u1.token, plain(), [
      file('images', png(10, 10)),
      file('pdf', Buffer.from('PK\x03\x04 a zip', 'latin1')),
    ]);
    expect([res.statusCode, message(res)]).toEqual([400, msg.campaignFileType('pdf')]);
    await expectNothingLeft(before);
  });

  it('insufficient credits: 409 and no campaign, no files, no debit', async () => {
    const before = await snapshot();
    const many = Array.from({ length: 11 }, (_, i) => `98765432${String(i).padStart(2, '0')}`);
    const res = await postCampaign(t, h.u1.token, plain({ to: many.join(',') }), [
      file('images', png(10, 10)),
    ]);
    expect([res.statusCode, message(res)]).toEqual([409, msg.insufficientCredits]);
    await expectNothingLeft(before);
  });

  it('an Idempotency-Key replay creates one campaign, one debit and one set of files', async () => {
    const before = await snapshot();
    const send = () =>
      postCampaign(
        t,
        h.u1.token,
        plain({ to: '9876543210,9876543211' }),
        [file('images', png(10, 10))],
        'campaign-key-1',
      );
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const second = await send();
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json<CreateCampaignReply>()).toEqual(first.json<CreateCampaignReply>());
    expect((await campaignRows(t)).campaigns).toBe(before.rows.campaigns + 1);
    expect(await countEntries(t.db)).toBe(before.entries + 1);
    expect(await balanceOf(t.db, h.u1.user.id, NORMAL)).toBe(before.balance - 2);
    expect(await storedFiles(t)).toHaveLength(before.files.length + 1);
    expect(await stagedFiles(t)).toEqual([]);
    const other = await postCampaign(t, h.u1.token, plain(), [], 'campaign-key-1');
    expect([other.statusCode, message(other)]).toEqual([409, msg.idempotencyMismatch]);
  });
});

describe('POST /api/campaigns: owner scope', () => {
  it('a manager creates for a user below it and debits that user', async () => {
    const before = await balanceOf(t.db, h.u1.user.id, CTA);
    const res = await postCampaign(t, h.r1.token, {
      creditType: CTA,
      message: 'For U1',
      to: '9876543210',
      userEmail: h.u1.user.email,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<CreateCampaignReply>().campaign).toMatchObject({
      userEmail: h.u1.user.email,
      createdBy: h.r1.user.email,
    });
    expect(await balanceOf(t.db, h.u1.user.id, CTA)).toBe(before - 1);
  });

  it('out of scope, a peer or a User picking another owner: 404, nothing written', async () => {
    const before = await snapshot();
    for (const [token, email] of [
      [h.r2.token, h.u1.user.email],
      [h.u2.token, h.u1.user.email],
      [h.u1.token, h.s1.user.email],
      [h.s1.token, h.r1.user.email],
      [h.r1.token, 'nobody@test.local'],
    ] as const) {
      const res = await postCampaign(t, token, plain({ userEmail: email }), [
        file('images', png(10, 10)),
      ]);
      expect([res.statusCode, message(res)]).toEqual([404, msg.userNotFound]);
    }
    await expectNothingLeft(before);
  });

  it('needs a login and multipart', async () => {
    const anon = await t.request({ method: 'POST', url: '/api/campaigns', payload: plain() });
    expect(anon.statusCode).toBe(401);
    const json = await t.request({
      method: 'POST',
      url: '/api/campaigns',
      token: h.u1.token,
      payload: plain(),
    });
    expect(json.statusCode).toBe(400);
  });
});
