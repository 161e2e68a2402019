import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { RATE_LIMITS, server as msg, type ApiKeyPage, type SessionUser } from '@herald/contract';
import { createTestApp, DEFAULT_PASSWORD, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, formOf, multipart, type Hierarchy } from '../users/test-fixtures.js';
import { createCampaign, messageOf } from '../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../campaigns/campaigns.test-fixtures.js';
import { NORMAL } from '../credits/credits.test-fixtures.js';
import { makeKey, revokeKey } from './api-keys.test-fixtures.js';

/**
 * Requests made with an API key (docs/api.md): the key's user with its role and scope, and every
 * way a key ends, each answering 401 on the very next request.
 */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const get = (token: string, url: string) => t.request({ method: 'GET', url, token });

async function expectEnded(secret: string) {
  const res = await get(secret, '/api/session');
  expect(res.statusCode, res.body).toBe(401);
  expect(messageOf(res)).toBe(msg.apiKeyInvalid);
}

describe('authenticating with a key', () => {
  it('acts as its user, with that user’s role and scope', async () => {
    const k = await makeKey(t, h.u1.token);
    const session = await get(k.secret, '/api/session');
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json<SessionUser>()).toMatchObject({ id: h.u1.user.id, role: 'User' });

    await fund(t, h.admin, h.u1.user.email, NORMAL, 10);
    await fund(t, h.admin, h.u3.user.email, NORMAL, 10);
    const own = await createCampaign(t, k.secret, ['9876543210']);
    expect((await get(k.secret, `/api/campaigns/${own}`)).statusCode).toBe(200);
    // Another tree's campaign is out of scope: 404 as for a session.
    const others = await createCampaign(t, h.u3.token, ['9876543211']);
    expect((await get(k.secret, `/api/campaigns/${others}`)).statusCode).toBe(404);
    // Manager and Admin routes answer 403, as for the User's session.
    for (const url of ['/api/users', '/api/backup/saved']) {
      expect((await get(k.secret, url)).statusCode, url).toBe(403);
    }
  });

  it('answers 401 with its message to an unknown or malformed key', async () => {
    const real = await makeKey(t, h.u2.token);
    const unknown = `${real.secret.slice(0, -4)}${real.secret.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    for (const secret of [unknown, 'hk_live_short', `hk_prod_${'a'.repeat(43)}`]) {
      const res = await get(secret, '/api/session');
      expect(res.statusCode, secret).toBe(401);
      expect(messageOf(res)).toBe(msg.apiKeyInvalid);
    }
  });

  it('writes last used on first use and at most once a minute after', async () => {
    const k = await makeKey(t, h.r2.token, 'Meter');
    const lastUsed = async () =>
      (
        await t.db
          .selectFrom('api_keys')
          .select('last_used_at')
          .where('id', '=', k.key.id)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    expect(await lastUsed()).toBeNull();
    await get(k.secret, '/api/session');
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await get(k.secret, '/api/session');
    expect(await lastUsed()).toEqual(first);
    const { keys } = (await get(h.r2.token, '/api/api-keys')).json<ApiKeyPage>();
    expect(keys.find((x) => x.id === k.key.id)?.lastUsedAt).toBe(first!.toISOString());
    // A minute later the next request writes it again.
    await t.db
      .updateTable('api_keys')
      .set({ last_used_at: sql<Date>`now() - interval '61 seconds'` })
      .where('id', '=', k.key.id)
      .execute();
    const before = await lastUsed();
    await get(k.secret, '/api/session');
    expect((await lastUsed())!.getTime()).toBeGreaterThan(before!.getTime());
  });
});

describe('rate limit per key', () => {
  it('tells the quota on each answer and refuses past it with 429 and Retry-After', async () => {
    const { max, windowSeconds } = RATE_LIMITS.apiKeyRequests;
    const k = await makeKey(t, h.s1.token, 'Busy');
    const ok = await get(k.secret, '/api/session');
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['ratelimit-limit']).toBe(String(max));
    expect(ok.headers['ratelimit-remaining']).toBe(String(max - 1));
    const reset = Number(ok.headers['ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(windowSeconds);
    // Spend the rest of the window's quota in the counter itself rather than by max requests.
    await t.db
      .updateTable('rate_limits')
      .set({ hits: max })
      .where('key', '=', `api-key:${k.key.id}`)
      .execute();
    const refused = await get(k.secret, '/api/session');
    expect(refused.statusCode).toBe(429);
    expect(messageOf(refused)).toBe(msg.tooManyRequests);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers['ratelimit-limit']).toBe(String(max));
    // Another key of the same user, and the user's session, are not held by this key's limit.
    const other = await makeKey(t, h.s1.token, 'Calm');
    expect((await get(other.secret, '/api/session')).statusCode).toBe(200);
    expect((await get(h.s1.token, '/api/session')).statusCode).toBe(200);
  });
});

describe('a key ends at once', () => {
  it('when revoked by its owner or by the Admin', async () => {
    const a = await makeKey(t, h.u2.token, 'A');
    const b = await makeKey(t, h.u2.token, 'B');
    expect((await get(a.secret, '/api/session')).statusCode).toBe(200);
    expect((await get(b.secret, '/api/session')).statusCode).toBe(200);
    expect((await revokeKey(t, h.u2.token, a.key.id)).statusCode).toBe(200);
    await expectEnded(a.secret);
    expect((await revokeKey(t, h.admin, b.key.id)).statusCode).toBe(200);
    await expectEnded(b.secret);
  });

  it('when its user is blocked, and stays ended after unblocking', async () => {
    const victim = await t.createUser(h.admin, { role: 'Reseller', name: 'Blocked one' });
    const k = await makeKey(t, victim.token);
    expect((await get(k.secret, '/api/session')).statusCode).toBe(200);
    const edit = (status: string) =>
      t.request({
        method: 'PUT',
        url: `/api/users/update/${victim.user.id}`,
        token: h.admin,
        ...multipart({ ...formOf(victim.user), status }),
      });
    expect((await edit('Blocked')).statusCode).toBe(200);
    await expectEnded(k.secret);
    expect((await edit('Active')).statusCode).toBe(200);
    await expectEnded(k.secret);
  });

  it('when its user changes the password', async () => {
    const k = await makeKey(t, h.r1.token);
    expect((await get(k.secret, '/api/session')).statusCode).toBe(200);
    const res = await t.request({
      method: 'PUT',
      url: '/api/users/change-password',
      token: h.r1.token,
      payload: {
        currentPassword: DEFAULT_PASSWORD,
        newPassword: 'a-new-password-42',
        confirmPassword: 'a-new-password-42',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(k.secret);
  });

  it('when its user is deleted', async () => {
    const gone = await t.createUser(h.admin, { role: 'User', name: 'Leaving' });
    const k = await makeKey(t, gone.token);
    expect((await get(k.secret, '/api/session')).statusCode).toBe(200);
    await t.db.deleteFrom('users').where('id', '=', gone.user.id).execute();
    await expectEnded(k.secret);
    const left = await t.db
      .selectFrom('api_keys')
      .select('id')
      .where('id', '=', k.key.id)
      .execute();
    expect(left).toEqual([]);
  });
});
