import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY_NAME_MAX,
  API_KEYS_PER_USER,
  server as msg,
  type ApiKeyPage,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { messageOf } from '../campaigns/campaign-actions.test-fixtures.js';
import { makeKey, postKey, revokeKey } from './api-keys.test-fixtures.js';

/** Managing API keys over HTTP: create, list, revoke, the Admin's view, bad input. */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

async function page(token: string, query = ''): Promise<ApiKeyPage> {
  const res = await t.request({ method: 'GET', url: `/api/api-keys${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ApiKeyPage>();
}

describe('creating and listing', () => {
  it('answers the secret once, in its kind’s form, and lists only its last four', async () => {
    const live = await makeKey(t, h.u1.token, '  Billing script  ', 'live');
    expect(live.message).toBe(msg.apiKeyCreated('Billing script'));
    expect(live.secret).toMatch(/^hk_live_[0-9A-Za-z]{43}$/);
    expect(live.key).toMatchObject({
      name: 'Billing script',
      kind: 'live',
      last4: live.secret.slice(-4),
      lastUsedAt: null,
      owner: { id: h.u1.user.id, email: h.u1.user.email },
    });
    const test = await makeKey(t, h.u1.token, 'Sandbox', 'test');
    expect(test.secret).toMatch(/^hk_test_[0-9A-Za-z]{43}$/);

    const res = await t.request({ method: 'GET', url: '/api/api-keys', token: h.u1.token });
    expect(res.body).not.toContain(live.secret);
    expect(res.body).not.toContain(test.secret);
    const { keys } = res.json<ApiKeyPage>();
    expect(keys.map((k) => k.name)).toEqual(['Sandbox', 'Billing script']);
    expect(Object.keys(keys[0]!).sort()).toEqual(
      ['createdAt', 'id', 'kind', 'last4', 'lastUsedAt', 'name', 'owner'].sort(),
    );
    // Only a hash is stored: the secret is nowhere in the row.
    const rows = await t.db.selectFrom('api_keys').selectAll().execute();
    for (const row of rows) {
      expect(JSON.stringify(row)).not.toContain(live.secret);
      expect(row.hash).toHaveLength(32);
    }
  });

  it('lists a non-Admin’s own keys only, and the Admin’s every user’s with the owner', async () => {
    const other = await makeKey(t, h.u2.token, 'U2 key');
    expect((await page(h.u1.token)).keys.map((k) => k.id)).not.toContain(other.key.id);
    const all = await page(h.admin);
    const row = all.keys.find((k) => k.id === other.key.id);
    expect(row?.owner).toEqual({ id: h.u2.user.id, name: 'U2', email: h.u2.user.email });
    expect(all.keys.some((k) => k.owner.id === h.u1.user.id)).toBe(true);
  });

  it('pages the Admin’s list newest first by cursor', async () => {
    const first = await page(h.admin, '?limit=1');
    expect(first.keys).toHaveLength(1);
    expect(first.nextCursor).not.toBeNull();
    const second = await page(h.admin, `?limit=1&cursor=${first.nextCursor}`);
    expect(second.keys[0]!.id).not.toBe(first.keys[0]!.id);
    expect(second.keys[0]!.createdAt <= first.keys[0]!.createdAt).toBe(true);
    const bad = await t.request({ method: 'GET', url: '/api/api-keys?cursor=x', token: h.admin });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses a bad name or kind with 400 and its message, and no session with 401', async () => {
    const cases: [unknown, string][] = [
      [{ name: '', kind: 'live' }, msg.apiKeyNameRequired],
      [{ name: '   ', kind: 'live' }, msg.apiKeyNameRequired],
      [{ kind: 'live' }, msg.apiKeyNameRequired],
      [{ name: 'x'.repeat(API_KEY_NAME_MAX + 1), kind: 'live' }, msg.apiKeyNameTooLong(64)],
      [{ name: 'ok', kind: 'prod' }, msg.apiKeyKindInvalid],
      [{ name: 'ok' }, msg.apiKeyKindInvalid],
    ];
    for (const [payload, message] of cases) {
      const res = await postKey(t, h.s1.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(messageOf(res)).toBe(message);
    }
    expect((await postKey(t, undefined, { name: 'x', kind: 'live' })).statusCode).toBe(401);
    expect((await page(h.s1.token)).keys).toEqual([]);
  });

  it(`holds a user to ${API_KEYS_PER_USER} keys at once with 409, and a revoke makes room`, async () => {
    const made = [];
    for (let i = 0; i < API_KEYS_PER_USER; i++) made.push(await makeKey(t, h.r2.token, `k${i}`));
    const over = await postKey(t, h.r2.token, { name: 'one more', kind: 'test' });
    expect(over.statusCode).toBe(409);
    expect(messageOf(over)).toBe(msg.apiKeysTooMany(API_KEYS_PER_USER));
    expect((await revokeKey(t, h.r2.token, made[0]!.key.id)).statusCode).toBe(200);
    await makeKey(t, h.r2.token, 'one more');
  });
});

describe('revoking', () => {
  it('revokes one’s own key, which then is gone from the list and 404 a second time', async () => {
    const k = await makeKey(t, h.s1.token, 'Temp');
    const res = await revokeKey(t, h.s1.token, k.key.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(messageOf(res)).toBe(msg.apiKeyRevoked('Temp'));
    expect((await page(h.s1.token)).keys.map((x) => x.id)).not.toContain(k.key.id);
    const again = await revokeKey(t, h.s1.token, k.key.id);
    expect(again.statusCode).toBe(404);
    expect(messageOf(again)).toBe(msg.apiKeyNotFound);
  });

  it('lets the Admin revoke any user’s key; another non-Admin, even above it, gets 404', async () => {
    const k = await makeKey(t, h.u1.token, 'Watched');
    for (const token of [h.u2.token, h.s1.token, h.r1.token]) {
      const res = await revokeKey(t, token, k.key.id);
      expect(res.statusCode).toBe(404);
      expect(messageOf(res)).toBe(msg.apiKeyNotFound);
    }
    expect((await revokeKey(t, h.admin, k.key.id)).statusCode).toBe(200);
    expect((await page(h.u1.token)).keys.map((x) => x.id)).not.toContain(k.key.id);
    expect((await revokeKey(t, h.admin, 'not-a-uuid')).statusCode).toBe(400);
  });
});

describe('keys do not manage keys', () => {
  it('answers 403 to a request made with an API key on every key route', async () => {
    const k = await makeKey(t, h.u1.token, 'Automation');
    const requests = [
      { method: 'GET' as const, url: '/api/api-keys' },
      { method: 'POST' as const, url: '/api/api-keys', payload: { name: 'x', kind: 'live' } },
      { method: 'DELETE' as const, url: `/api/api-keys/${k.key.id}` },
    ];
    for (const r of requests) {
      const res = await t.request({ ...r, token: k.secret });
      expect(res.statusCode, r.url).toBe(403);
      expect(messageOf(res)).toBe(msg.apiKeyNeedsSession);
    }
    expect((await page(h.u1.token)).keys.map((x) => x.id)).toContain(k.key.id);
  });
});
