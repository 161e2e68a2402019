import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { CreditTransactionType, CreditType, HistoryReply, Role } from '@herald/contract';
import { ADMIN_EMAIL, type TestApp } from '../../../test/harness.js';
import type { Hierarchy } from '../users/test-fixtures.js';
import type { LedgerKind } from '../../db/schema.js';

/**
 * Test-only: ledger rows written straight into the tables, consistent with each other (entry,
 * balance, viewer rows), plus a model of them to compute what each caller should see.
 */

export interface Person {
  id: string;
  email: string;
  name: string;
  role: Role;
  ancestors: string[];
}

export interface Seeded {
  id: string;
  to: Person;
  by: Person;
  type: CreditTransactionType;
  creditType: CreditType;
  at: Date;
}

export interface SeedEntry {
  to: Person;
  by: Person;
  type?: CreditTransactionType;
  creditType?: CreditType;
  count?: number;
  /** Paise; null for entries without a rate. */
  rate?: number | null;
  reason?: string | null;
  kind?: LedgerKind;
  at?: string;
}

export async function person(t: TestApp, email: string): Promise<Person> {
  return t.db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'ancestors'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
}

/** Writes the entries in order, in one transaction; balances must never go below zero. */
export async function seed(t: TestApp, entries: SeedEntry[]): Promise<Seeded[]> {
  return t.db.transaction().execute(async (tx) => {
    const out: Seeded[] = [];
    for (const e of entries) {
      const type = e.type ?? 'Added';
      const creditType = e.creditType ?? 'Normal Message - domestic';
      const count = e.count ?? 1;
      const rate = e.rate === undefined ? 10 : e.rate;
      const row = await tx
        .insertInto('credit_transactions')
        .values({
          group_id: randomUUID(),
          to_user_id: e.to.id,
          to_email: e.to.email,
          to_name: e.to.name,
          by_user_id: e.by.id,
          by_email: e.by.email,
          by_name: e.by.name,
          type,
          credit_type: creditType,
          count,
          rate_paise: rate,
          total_paise: rate === null ? null : rate * count,
          reason: e.reason ?? null,
          kind: e.kind ?? (type === 'Added' ? 'mint' : 'burn'),
          ...(e.at ? { created_at: e.at } : {}),
        })
        .returning(['id', 'created_at'])
        .executeTakeFirstOrThrow();
      const touched = [e.to.id, e.by.id, ...e.to.ancestors, ...e.by.ancestors];
      await sql`
        INSERT INTO credit_transaction_viewers (viewer_id, transaction_id)
        SELECT id, ${row.id}::bigint FROM users
        WHERE role IN ('Reseller', 'Sub-Reseller') AND id = ANY(${touched}::uuid[])`.execute(tx);
      if (type === 'Added') {
        await sql`
          INSERT INTO credit_balances (user_id, credit_type, balance, total_added)
          VALUES (${e.to.id}, ${creditType}, ${count}, ${count})
          ON CONFLICT (user_id, credit_type) DO UPDATE SET
            balance = credit_balances.balance + EXCLUDED.balance,
            total_added = credit_balances.total_added + EXCLUDED.total_added`.execute(tx);
      } else {
        const res = await sql`
          UPDATE credit_balances SET balance = balance - ${count},
            total_removed = total_removed + ${count}
          WHERE user_id = ${e.to.id} AND credit_type = ${creditType}`.execute(tx);
        if (res.numAffectedRows !== 1n) throw new Error('seed: nothing to remove');
      }
      out.push({ id: row.id, to: e.to, by: e.by, type, creditType, at: row.created_at });
    }
    return out;
  });
}

/** What `viewer` may see of the model (docs/product.md, Credits and the ledger), newest first. */
export function visibleTo(viewer: Person, model: Seeded[]): Seeded[] {
  const inScope = (p: Person) => p.id === viewer.id || p.ancestors.includes(viewer.id);
  return model
    .filter((e) =>
      viewer.role === 'Admin'
        ? true
        : viewer.role === 'User'
          ? e.to.id === viewer.id
          : inScope(e.to) || inScope(e.by),
    )
    .sort((a, b) => Number(b.id) - Number(a.id));
}

export type Query = Record<string, string | number>;

/** Query values as strings, as a URL carries them. */
export const qs = (q: Query) =>
  Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)]));

export const ids = (entries: { id: string }[]) => entries.map((e) => e.id);

/** Every page of a query (limit 200), following nextCursor. */
export async function allPages(
  t: TestApp,
  token: string,
  query: Query,
): Promise<HistoryReply['transactions']> {
  const rows: HistoryReply['transactions'] = [];
  let cursor = '';
  for (let i = 0; i < 100; i++) {
    const res = await t.request({
      method: 'GET',
      url: '/api/credits/history',
      token,
      query: qs({ limit: 200, ...query, cursor }),
    });
    if (res.statusCode !== 200) throw new Error(`history: ${res.statusCode} ${res.body}`);
    const page = res.json<HistoryReply>();
    rows.push(...page.transactions);
    if (page.nextCursor === null) return rows;
    cursor = page.nextCursor;
  }
  throw new Error('too many pages');
}

export type Who = 'admin' | 'r1' | 's1' | 'u1' | 'u2' | 'r2' | 'u3';
export type People = Record<Who, Person>;

/**
 * The ledger most history tests read, on buildHierarchy's users (Admin; R1 → S1 → U1; R1 → U2;
 * R2 → U3), its times placed around local-day boundaries of UTC, IST (-330) and EST (+300).
 * Balances after: R1 900, S1 50, U1 89 (Normal); R2 480, U3 20, U2 5 (With DP).
 */
export async function standardLedger(t: TestApp, h: Hierarchy) {
  const who: Who[] = ['admin', 'r1', 's1', 'u1', 'u2', 'r2', 'u3'];
  const member = (k: Who) => (k === 'admin' ? undefined : h[k]);
  const token = Object.fromEntries(who.map((k) => [k, member(k)?.token ?? h.admin])) as Record<
    Who,
    string
  >;
  const p = Object.fromEntries(
    await Promise.all(
      who.map(async (k) => [k, await person(t, member(k)?.user.email ?? ADMIN_EMAIL)]),
    ),
  ) as People;
  const NORMAL: CreditType = 'Normal Message - domestic';
  const DP: CreditType = 'With DP - domestic';
  const transfer = (by: Person, to: Person, count: number, creditType: CreditType, at: string) =>
    [
      { to, by, count, creditType, at, kind: 'transfer_in' },
      { to: by, by, count, creditType, at, type: 'Removed', kind: 'transfer_out' },
    ] satisfies SeedEntry[];
  const model = await seed(t, [
    { to: p.r1, by: p.admin, count: 1000, at: '2024-03-01T10:00:00Z' },
    { to: p.r2, by: p.admin, count: 500, creditType: DP, at: '2024-03-02T10:00:00Z' },
    ...transfer(p.r1, p.u1, 100, NORMAL, '2024-03-10T18:29:00Z'),
    { to: p.s1, by: p.admin, count: 50, reason: '=cmd|/C calc', at: '2024-03-10T18:31:00Z' },
    ...transfer(p.r2, p.u3, 20, DP, '2024-03-11T18:29:59Z'),
    { to: p.u2, by: p.admin, count: 5, creditType: DP, rate: null, at: '2024-03-11T18:30:00Z' },
    { to: p.u1, by: p.admin, count: 10, type: 'Removed', at: '2024-03-12T00:00:00Z' },
    {
      to: p.u1,
      by: p.u1,
      type: 'Removed',
      rate: null,
      kind: 'campaign_debit',
      at: '2024-03-12T05:00:00Z',
    },
  ]);
  return { p, token, model };
}
