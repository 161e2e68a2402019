import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  paiseToRupees,
  type CreateCreditReply,
  type CreditTransactionType,
  type CreditType,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { DP, NORMAL, ledgerViolations, postCredit, totalsByType } from './credits.test-fixtures.js';

/**
 * Model-based test of POST /api/credits (an in-memory reference model predicts every reply; a checker runs as SQL after every run). Random mints, burns, transfers
 * and take-backs by random actors, some out of scope or short, some retried with their
 * Idempotency-Key.
 */

type Name = 'admin' | 'r1' | 's1' | 'u1' | 'u2' | 'r2' | 'u3';
const NAMES: Name[] = ['admin', 'r1', 's1', 'u1', 'u2', 'r2', 'u3'];
/** Who is strictly below whom in the fixture (Admin; R1 → S1 → U1; R1 → U2; R2 → U3). */
const BELOW: Record<Name, Name[]> = {
  admin: ['r1', 's1', 'u1', 'u2', 'r2', 'u3'],
  r1: ['s1', 'u1', 'u2'],
  s1: ['u1'],
  r2: ['u3'],
  u1: [],
  u2: [],
  u3: [],
};
const MANAGERS: Name[] = ['r1', 's1', 'r2'];
const TYPES: CreditType[] = [NORMAL, DP];

interface Cmd {
  actor: Name;
  target: Name;
  type: CreditTransactionType;
  creditType: CreditType;
  count: number;
  ratePaise: number;
  /** Send it again with the same Idempotency-Key: must replay and change nothing. */
  retry: boolean;
}

const common = {
  creditType: fc.constantFrom(...TYPES),
  count: fc.integer({ min: 1, max: 15 }),
  ratePaise: fc.integer({ min: 0, max: 1000 }),
  retry: fc.boolean(),
};
const type = fc.constantFrom<CreditTransactionType>('Added', 'Removed');
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  // Admin mints or burns for anyone below it.
  {
    weight: 3,
    arbitrary: fc.record({
      ...common,
      actor: fc.constant<Name>('admin'),
      target: fc.constantFrom(...BELOW.admin),
      type,
    }),
  },
  // A Reseller or Sub-Reseller gives or takes back within its subtree.
  {
    weight: 4,
    arbitrary: fc.constantFrom(...MANAGERS).chain((actor) =>
      fc.record({
        ...common,
        actor: fc.constant(actor),
        target: fc.constantFrom(...BELOW[actor]),
        type,
      }),
    ),
  },
  // Anyone at anyone: self, out of scope, Users.
  {
    weight: 1,
    arbitrary: fc.record({
      ...common,
      actor: fc.constantFrom(...NAMES),
      target: fc.constantFrom(...NAMES),
      type,
    }),
  },
);

let t: TestApp;
let h: Hierarchy;
const ids = {} as Record<Name, string>;
const emails = {} as Record<Name, string>;
const tokens = {} as Record<Name, string>;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  const admin = await t.db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('role', '=', 'Admin')
    .executeTakeFirstOrThrow();
  ids.admin = admin.id;
  emails.admin = admin.email;
  tokens.admin = h.admin;
  for (const n of ['r1', 's1', 'u1', 'u2', 'r2', 'u3'] as const) {
    ids[n] = h[n].user.id;
    emails[n] = h[n].user.email;
    tokens[n] = h[n].token;
  }
});
afterAll(() => t.close());

type Model = Map<string, number>;
const slot = (name: Name, creditType: CreditType) => `${ids[name]}|${creditType}`;

async function loadBalances(): Promise<Model> {
  const rows = await t.db
    .selectFrom('credit_balances')
    .select(['user_id', 'credit_type', 'balance'])
    .execute();
  return new Map(rows.map((r) => [`${r.user_id}|${r.credit_type}`, Number(r.balance)]));
}

/** The reply the model expects, and how the model changes when it is a success. */
function predict(m: Model, c: Cmd): { status: number; entries: number; mintMinusBurn: number } {
  const get = (n: Name) => m.get(slot(n, c.creditType)) ?? 0;
  const add = (n: Name, d: number) => m.set(slot(n, c.creditType), get(n) + d);
  if (!['admin', ...MANAGERS].includes(c.actor))
    return { status: 403, entries: 0, mintMinusBurn: 0 };
  if (c.actor === c.target) return { status: 400, entries: 0, mintMinusBurn: 0 };
  if (!BELOW[c.actor].includes(c.target)) return { status: 404, entries: 0, mintMinusBurn: 0 };
  const short = { status: 409, entries: 0, mintMinusBurn: 0 };
  if (c.actor === 'admin') {
    if (c.type === 'Removed' && get(c.target) < c.count) return short;
    const delta = c.type === 'Added' ? c.count : -c.count;
    add(c.target, delta);
    return { status: 201, entries: 1, mintMinusBurn: delta };
  }
  const [from, to] = c.type === 'Added' ? [c.actor, c.target] : [c.target, c.actor];
  if (get(from) < c.count) return short;
  add(from, -c.count);
  add(to, c.count);
  return { status: 201, entries: 2, mintMinusBurn: 0 };
}

const sum = (m: Model, creditType: CreditType) =>
  [...m].filter(([k]) => k.endsWith(`|${creditType}`)).reduce((a, [, v]) => a + v, 0);

let keyCounter = 0;

describe('the ledger under random operations (model-based)', () => {
  it('keeps balance = Σ Added − Σ Removed ≥ 0, conserves credits, pairs every transfer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 1, maxLength: 15 }), async (cmds) => {
        const model = await loadBalances();
        const before = new Map(TYPES.map((ct) => [ct, sum(model, ct)]));
        // Admin mints minus burns per credit type: the only way the total may change.
        const minted = new Map(TYPES.map((ct) => [ct, 0]));
        for (const c of cmds) {
          const expected = predict(model, c);
          minted.set(c.creditType, (minted.get(c.creditType) ?? 0) + expected.mintMinusBurn);
          const key = `prop-${++keyCounter}`;
          const body = {
            to: emails[c.target],
            creditType: c.creditType,
            count: c.count,
            rate: paiseToRupees(c.ratePaise),
            type: c.type,
          };
          const res = await postCredit(t, tokens[c.actor], body, key);
          expect(res.statusCode, JSON.stringify(c)).toBe(expected.status);
          if (res.statusCode !== 201) continue;
          const reply = res.json<CreateCreditReply>();
          expect(reply.transactions).toHaveLength(expected.entries);
          for (const e of reply.transactions) {
            expect(e).toMatchObject({ count: c.count, creditType: c.creditType });
            expect(Math.round(e.totalAmount! * 100)).toBe(c.count * c.ratePaise);
          }
          if (c.retry) {
            const again = await postCredit(t, tokens[c.actor], body, key);
            expect(again.statusCode).toBe(201);
            expect(again.body).toBe(res.body);
          }
        }
        const actual = await loadBalances();
        expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(model));
        expect(await ledgerViolations(t.db)).toEqual({
          balanceMismatch: [],
          negative: [],
          brokenGroups: [],
        });
        const totals = await totalsByType(t.db);
        for (const ct of TYPES) {
          expect(totals[ct] ?? 0).toBe((before.get(ct) ?? 0) + (minted.get(ct) ?? 0));
        }
      }),
      { numRuns: 25 },
    );
  });
});
