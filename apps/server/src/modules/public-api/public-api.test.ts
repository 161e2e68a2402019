import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  server as msg,
  type ApiError,
  type Campaign,
  type CampaignWithFiles,
  type CreditTransaction,
  type PublicBalances,
  type PublicRecipient,
  type Suppression,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, formOf, multipart, type Hierarchy } from '../users/test-fixtures.js';
import { makeKey, revokeKey } from '../api-keys/api-keys.test-fixtures.js';
import { NORMAL } from '../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../campaigns/campaigns.test-fixtures.js';
import { balanceOf } from '../credits/credits.test-fixtures.js';

/**
 * The v1 public API (docs/api.md, The v1 API): its routes over the web app's services, with the
 * same role and scope rules, keyset pages `{ items, nextCursor }`, Idempotency-Key on POSTs and
 * errors `{ message, code }`, while the web app's /api answers keep their shape.
 */

let t: TestApp;
let h: Hierarchy;
let userKey: string;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  userKey = (await makeKey(t, h.u1.token, 'Script')).secret;
  await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
});
afterAll(() => t.close());

type Page<T> = { items: T[]; nextCursor: string | null };
const v1 = (
  token: string | undefined,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) => t.request({ method, url: `/api/v1${url}`, token, payload, headers });

const create = (token: string, body: object, key?: string) =>
  v1(token, 'POST', '/campaigns', body, key ? { 'idempotency-key': key } : {});

function expectError(res: { statusCode: number; json<T>(): T }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json<ApiError>();
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  return body;
}

describe('campaigns', () => {
  it('creates from JSON, reads it, pages the list and the recipients with their status', async () => {
    const before = await balanceOf(t.db, h.u1.user.id);
    const res = await create(userKey, {
      creditType: NORMAL,
      message: 'Hello from v1',
      recipients: ['9876500001', '+91 98765 00002', '9876500001', 'not a number'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const { campaign } = res.json<{ campaign: CampaignWithFiles }>();
    expect(campaign).toMatchObject({ recipientCount: 2, test: false, status: 'Submitted' });
    expect(await balanceOf(t.db, h.u1.user.id)).toBe(before - 2);

    const read = await v1(userKey, 'GET', `/campaigns/${campaign._id}`);
    expect(read.json<CampaignWithFiles>()).toMatchObject({ _id: campaign._id, files: [] });

    const first = await v1(userKey, 'GET', `/campaigns/${campaign._id}/recipients?limit=1`);
    const page1 = first.json<Page<PublicRecipient>>();
    expect(page1.items).toEqual([
      expect.objectContaining({ phone: '919876500002', state: null, attempts: 0 }),
    ]);
    const next = await v1(
      userKey,
      'GET',
      `/campaigns/${campaign._id}/recipients?limit=1&cursor=${page1.nextCursor}`,
    );
    const page2 = next.json<Page<PublicRecipient>>();
    expect(page2.items.map((r) => r.phone)).toEqual(['9876500001']);
    expect(page2.nextCursor).toBeNull();

    await create(userKey, { creditType: NORMAL, message: 'Second', recipients: ['9876500003'] });
    const list = (await v1(userKey, 'GET', '/campaigns?limit=1')).json<Page<Campaign>>();
    expect(list.items).toHaveLength(1);
    expect(list.nextCursor).not.toBeNull();
    const rest = (await v1(userKey, 'GET', `/campaigns?limit=50&cursor=${list.nextCursor}`)).json<
      Page<Campaign>
    >();
    expect(rest.items.map((c) => c._id)).toContain(campaign._id);
  });

  it('creates from the web form as multipart too, through the same checks', async () => {
    const form = multipart({ creditType: NORMAL, message: 'Form', to: '9876500010,9876500011' });
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/campaigns',
      token: userKey,
      payload: form.payload,
      headers: form.headers,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<{ campaign: Campaign }>().campaign.recipientCount).toBe(2);
    const none = multipart({ creditType: NORMAL, message: 'Form', to: '12' });
    const refused = await t.request({
      method: 'POST',
      url: '/api/v1/campaigns',
      token: userKey,
      payload: none.payload,
      headers: none.headers,
    });
    expect(expectError(refused, 400, 'validation_failed').message).toBe(msg.campaignNoRecipients);
  });

  it('replays a retried POST under the same Idempotency-Key and refuses it for another body', async () => {
    const body = { creditType: NORMAL, message: 'Once', recipients: ['9876500020'] };
    const first = await create(userKey, body, 'v1-once');
    const again = await create(userKey, body, 'v1-once');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<{ campaign: Campaign }>().campaign._id).toBe(
      first.json<{ campaign: Campaign }>().campaign._id,
    );
    const other = await create(userKey, { ...body, message: 'Other' }, 'v1-once');
    expectError(other, 409, 'conflict');
  });

  it('requests a cancellation by the status rules, idempotently', async () => {
    const made = await create(userKey, {
      creditType: NORMAL,
      message: 'Stop me',
      recipients: ['9876500030'],
    });
    const id = made.json<{ campaign: Campaign }>().campaign._id;
    const headers = { 'idempotency-key': 'cancel-1' };
    const res = await v1(userKey, 'POST', `/campaigns/${id}/cancel`, undefined, headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ campaign: Campaign }>().campaign.status).toBe('Cancellation Requested');
    const replay = await v1(userKey, 'POST', `/campaigns/${id}/cancel`, undefined, headers);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    // Asked again without the key, the move is not allowed from where it stands now.
    expectError(await v1(userKey, 'POST', `/campaigns/${id}/cancel`), 409, 'conflict');
  });

  it('refuses with machine codes: bad input, short balance, another tree, no key', async () => {
    const bad = await create(userKey, { creditType: NORMAL, message: '', recipients: [] });
    expectError(bad, 400, 'validation_failed');
    const poor = await makeKey(t, h.u2.token, 'Poor');
    const short = await create(poor.secret, {
      creditType: NORMAL,
      message: 'No money',
      recipients: ['9876500040'],
    });
    expect(expectError(short, 409, 'insufficient_credits').message).toBe(msg.insufficientCredits);

    const theirs = await create(h.u1.token, {
      creditType: NORMAL,
      message: 'Mine',
      recipients: ['9876500041'],
    });
    const id = theirs.json<{ campaign: Campaign }>().campaign._id;
    const u3 = await makeKey(t, h.u3.token, 'Other tree');
    expectError(await v1(u3.secret, 'GET', `/campaigns/${id}`), 404, 'not_found');
    expectError(await v1(u3.secret, 'GET', `/campaigns/${id}/recipients`), 404, 'not_found');
    expectError(await v1(u3.secret, 'POST', `/campaigns/${id}/cancel`), 404, 'not_found');
    expectError(await v1(undefined, 'GET', '/campaigns'), 401, 'unauthorized');
    // Neither JSON nor a form: no body at all, or text.
    expectError(await v1(userKey, 'POST', '/campaigns'), 415, 'unsupported_media_type');
    const textBody = await t.request({
      method: 'POST',
      url: '/api/v1/campaigns',
      token: userKey,
      payload: 'recipients=9876500001',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(textBody, 415, 'unsupported_media_type');
    expectError(await v1(userKey, 'GET', '/nothing-here'), 404, 'not_found');
  });

  it('keeps the web app’s /api errors as they were: a message, no code', async () => {
    const res = await t.request({ method: 'GET', url: '/api/campaigns', payload: undefined });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: msg.notLoggedIn });
    // A User's key meets the same role rules on the web app's routes: 403 for the Admin's.
    const admin = await t.request({ method: 'GET', url: '/api/backup/saved', token: userKey });
    expect(admin.statusCode).toBe(403);
    expect(admin.json()).toEqual({ message: msg.forbidden });
  });
});

describe('keys that ended', () => {
  it('answer 401 unauthorized once revoked or once their user is blocked', async () => {
    const revoked = await makeKey(t, h.s1.token, 'Gone');
    expect((await v1(revoked.secret, 'GET', '/balances')).statusCode).toBe(200);
    await revokeKey(t, h.s1.token, revoked.key.id);
    expectError(await v1(revoked.secret, 'GET', '/balances'), 401, 'unauthorized');

    const victim = await t.createUser(h.admin, { role: 'User', name: 'Blocked v1' });
    const k = await makeKey(t, victim.token);
    expect((await v1(k.secret, 'GET', '/campaigns')).statusCode).toBe(200);
    const blocked = await t.request({
      method: 'PUT',
      url: `/api/users/update/${victim.user.id}`,
      token: h.admin,
      ...multipart({ ...formOf(victim.user), status: 'Blocked' }),
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expectError(await v1(k.secret, 'GET', '/campaigns'), 401, 'unauthorized');
  });
});

describe('credits', () => {
  it('answers the caller’s own balances and ledger, paged', async () => {
    const reseller = await makeKey(t, h.r1.token, 'Books');
    await fund(t, h.admin, h.r1.user.email, NORMAL, 7);
    await fund(t, h.admin, h.r1.user.email, NORMAL, 3);
    const balances = (await v1(reseller.secret, 'GET', '/balances')).json<PublicBalances>();
    expect(balances.items).toEqual([{ creditType: NORMAL, balance: 10 }]);
    const first = (await v1(reseller.secret, 'GET', '/ledger?limit=1')).json<
      Page<CreditTransaction>
    >();
    expect(first.items).toHaveLength(1);
    expect(first.items[0]).toMatchObject({ count: 3, to: h.r1.user.email });
    const second = (
      await v1(reseller.secret, 'GET', `/ledger?limit=5&cursor=${first.nextCursor}`)
    ).json<Page<CreditTransaction>>();
    expect(second.items.map((e) => e.count)).toEqual([7]);
    expect(second.nextCursor).toBeNull();
  });
});

describe('suppressions', () => {
  it('adds idempotently, lists and removes the caller’s own numbers by number', async () => {
    const k = await makeKey(t, h.u2.token, 'Opt-outs');
    const headers = { 'idempotency-key': 'supp-1' };
    const added = await v1(k.secret, 'POST', '/suppressions', { phone: '98765 11111' }, headers);
    expect(added.statusCode, added.body).toBe(201);
    const replay = await v1(k.secret, 'POST', '/suppressions', { phone: '98765 11111' }, headers);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expectError(
      await v1(k.secret, 'POST', '/suppressions', { phone: '9876511111' }),
      409,
      'conflict',
    );
    expectError(
      await v1(k.secret, 'POST', '/suppressions', { phone: 'x' }),
      400,
      'validation_failed',
    );

    const list = (await v1(k.secret, 'GET', '/suppressions')).json<Page<Suppression>>();
    expect(list.items.map((s) => s.phone)).toEqual(['9876511111']);
    // Another user's list is its own: the number is not on it.
    expectError(await v1(userKey, 'DELETE', '/suppressions/9876511111'), 404, 'not_found');
    const removed = await v1(k.secret, 'DELETE', '/suppressions/9876511111');
    expect(removed.statusCode, removed.body).toBe(200);
    expectError(await v1(k.secret, 'DELETE', '/suppressions/9876511111'), 404, 'not_found');
  });
});
