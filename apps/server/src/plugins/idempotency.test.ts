import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type CreateCreditReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../modules/users/test-fixtures.js';
import {
  balanceOf,
  countEntries,
  creditBody,
  postCredit,
} from '../modules/credits/credits.test-fixtures.js';
import {
  canonicalJson,
  IDEMPOTENCY_KEY_TTL_MS,
  pruneIdempotencyKeys,
  requestHash,
} from './idempotency.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await postCredit(t, h.admin, creditBody(h.r1.user.email, { count: 100 }));
});
afterAll(() => t.close());

async function groupsOf(ids: string[]): Promise<string[]> {
  const rows = await t.db
    .selectFrom('credit_transactions')
    .select('group_id')
    .distinct()
    .where('id', 'in', ids)
    .execute();
  return rows.map((r) => r.group_id);
}

describe('canonical request hash', () => {
  it('ignores key order and absent fields, and sees every value', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"e":0,"f":1}]},"b":1}',
    );
    expect(requestHash({ a: 1, b: 2 })).toBe(requestHash({ b: 2, a: 1 }));
    expect(requestHash({ a: 1, b: 2 })).not.toBe(requestHash({ a: 1, b: 3 }));
  });
});

describe('Idempotency-Key on POST /api/credits', () => {
  it('replays the first reply byte for byte and writes one ledger group', async () => {
    const body = creditBody(h.u2.user.email, { count: 7, reason: 'Once' });
    const first = await postCredit(t, h.r1.token, body, 'key-replay');
    expect(first.statusCode).toBe(201);
    const entries = await countEntries(t.db);
    const balance = await balanceOf(t.db, h.u2.user.id);

    // The same request in another spelling (key order, email case, rate as a string).
    const again = await postCredit(
      t,
      h.r1.token,
      { ...body, rate: '0.25', to: h.u2.user.email.toUpperCase() },
      'key-replay',
    );
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await countEntries(t.db)).toBe(entries);
    expect(await balanceOf(t.db, h.u2.user.id)).toBe(balance);
    const ids = first.json<CreateCreditReply>().transactions.map((e) => e.id);
    expect(await groupsOf(ids)).toHaveLength(1);
  });

  it('refuses the key with a different request (409) and writes nothing', async () => {
    await postCredit(t, h.r1.token, creditBody(h.u2.user.email, { count: 2 }), 'key-mismatch');
    const entries = await countEntries(t.db);
    const res = await postCredit(
      t,
      h.r1.token,
      creditBody(h.u2.user.email, { count: 3 }),
      'key-mismatch',
    );
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: msg.idempotencyMismatch });
    expect(await countEntries(t.db)).toBe(entries);
  });

  it('scopes keys per user: another caller may use the same key', async () => {
    const admin = await postCredit(t, h.admin, creditBody(h.u3.user.email), 'key-shared');
    const r1 = await postCredit(t, h.r1.token, creditBody(h.u2.user.email), 'key-shared');
    expect([admin.statusCode, r1.statusCode]).toEqual([201, 201]);
    expect(r1.headers['idempotent-replayed']).toBeUndefined();
  });

  it('runs two concurrent requests with one key once: both get the one reply', async () => {
    const entries = await countEntries(t.db);
    const body = creditBody(h.u1.user.email, { count: 4 });
    const [a, b] = await Promise.all([
      postCredit(t, h.r1.token, body, 'key-race'),
      postCredit(t, h.r1.token, body, 'key-race'),
    ]);
    expect([a!.statusCode, b!.statusCode]).toEqual([201, 201]);
    expect(a!.body).toBe(b!.body);
    expect(await countEntries(t.db)).toBe(entries + 2);
    const ids = a!.json<CreateCreditReply>().transactions.map((e) => e.id);
    expect(await groupsOf(ids)).toHaveLength(1);
  });

  it('stores nothing for a failed request, so a corrected retry with the key works', async () => {
    const bad = await postCredit(
      t,
      h.r1.token,
      creditBody(h.u2.user.email, { count: 0 }),
      'key-retry',
    );
    expect(bad.statusCode).toBe(400);
    const short = await postCredit(
      t,
      h.r1.token,
      creditBody(h.u2.user.email, { count: 1_000_000 }),
      'key-retry',
    );
    expect(short.statusCode).toBe(409);
    expect(short.json()).toEqual({ message: msg.insufficientCredits });
    const stored = await t.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', '=', 'key-retry')
      .execute();
    expect(stored).toEqual([]);
    const good = await postCredit(t, h.r1.token, creditBody(h.u2.user.email), 'key-retry');
    expect(good.statusCode).toBe(201);
  });

  it('answers 400 to an empty or over-long key', async () => {
    for (const key of ['', 'k'.repeat(256)]) {
      const res = await postCredit(t, h.r1.token, creditBody(h.u2.user.email), key);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: msg.idempotencyKeyInvalid });
    }
    const longest = await postCredit(t, h.r1.token, creditBody(h.u2.user.email), 'k'.repeat(255));
    expect(longest.statusCode).toBe(201);
  });
});

describe('pruning idempotency keys', () => {
  it('deletes keys older than the retention and keeps the recent ones', async () => {
    const body = creditBody(h.u2.user.email, { count: 1 });
    expect((await postCredit(t, h.r1.token, body, 'key-old')).statusCode).toBe(201);
    expect((await postCredit(t, h.r1.token, body, 'key-new')).statusCode).toBe(201);
    await t.db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS - 60_000) })
      .where('key', '=', 'key-old')
      .execute();
    expect(await pruneIdempotencyKeys(t.db)).toBe(1);
    const left = await t.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', 'in', ['key-old', 'key-new'])
      .execute();
    expect(left.map((r) => r.key)).toEqual(['key-new']);
    // The pruned key is free again: the same request now runs as a new one.
    const entries = await countEntries(t.db);
    const again = await postCredit(t, h.r1.token, body, 'key-old');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await countEntries(t.db)).toBe(entries + 2);
  });
});
