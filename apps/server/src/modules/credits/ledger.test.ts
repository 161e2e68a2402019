import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { server as msg } from '@herald/contract';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../test/harness.js';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { DP, NORMAL, balanceOf, ledgerViolations } from './credits.test-fixtures.js';
import { credit, debit, transfer } from './ledger.service.js';

const POOL = 20;
let t: TestApp;
let h: Hierarchy;
let admin: { id: string };
beforeAll(async () => {
  // Enough connections for real parallel transactions (the default pool is 4).
  t = await createTestApp({ DB_POOL_MAX: String(POOL) });
  h = await buildHierarchy(t);
  admin = await t.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', ADMIN_EMAIL)
    .executeTakeFirstOrThrow();
});
afterAll(() => t.close());

const inTx = <T>(work: (tx: Tx) => Promise<T>) => t.db.transaction().execute(work);

async function mint(userId: string, count: number, creditType = NORMAL) {
  await inTx((tx) =>
    credit(tx, { userId, creditType, count, actor: admin, reason: null, kind: 'mint' }),
  );
}

/** Resolves once `n` callers arrived (or after a safety timeout, so a mistake cannot hang). */
function barrier(n: number) {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
    setTimeout(resolve, 5000).unref();
  });
  return () => {
    if (++arrived >= n) open();
    return opened;
  };
}

interface RaceOutcome {
  succeeded: number;
  insufficient: number;
  /** SQLSTATE of any other failure (a CHECK constraint refusing an overdraft is 23514). */
  otherErrors: string[];
  balance: number;
}

/** 100 debits of 1, each in its own transaction on its own connection, all at once. */
async function race(userId: string, debitOne: (tx: Tx) => Promise<unknown>): Promise<RaceOutcome> {
  const results = await Promise.allSettled(Array.from({ length: 100 }, () => inTx(debitOne)));
  const out: RaceOutcome = { succeeded: 0, insufficient: 0, otherErrors: [], balance: 0 };
  for (const r of results) {
    if (r.status === 'fulfilled') out.succeeded++;
    else if (r.reason instanceof AppError && r.reason.message === msg.insufficientCredits) {
      out.insufficient++;
    } else out.otherErrors.push((r.reason as { code?: string }).code ?? String(r.reason));
  }
  out.balance = await balanceOf(t.db, userId);
  return out;
}

describe('concurrent debits never overdraw', () => {
  it('100 parallel debits of 1 against a balance of 10: exactly 10 succeed, balance 0', async () => {
    await mint(h.u1.user.id, 10);
    const outcome = await race(h.u1.user.id, (tx) =>
      debit(tx, {
        userId: h.u1.user.id,
        creditType: NORMAL,
        count: 1,
        actor: admin,
        reason: null,
        kind: 'burn',
      }),
    );
    expect(outcome).toEqual({ succeeded: 10, insufficient: 90, otherErrors: [], balance: 0 });
    expect(await ledgerViolations(t.db)).toEqual({
      balanceMismatch: [],
      negative: [],
      brokenGroups: [],
    });
  });

  it('the same race sees the bug in a read-then-write debit (the test can fail)', async () => {
    await mint(h.u2.user.id, 10);
    // The first POOL transactions all read before any writes, as a burst of requests would;
    // the rest reuse their connections after them.
    const arrive = barrier(POOL);
    const naive = async (tx: Tx) => {
      const { rows } = await sql<{ balance: string }>`
        SELECT balance FROM credit_balances
        WHERE user_id = ${h.u2.user.id} AND credit_type = ${NORMAL}`.execute(tx);
      await arrive();
      if (Number(rows[0]?.balance ?? 0) < 1) throw new AppError(409, msg.insufficientCredits);
      // The anti-pattern: the check above is stale by now and the UPDATE has no guard.
      await sql`
        UPDATE credit_balances SET balance = balance - 1, total_removed = total_removed + 1
        WHERE user_id = ${h.u2.user.id} AND credit_type = ${NORMAL}`.execute(tx);
    };
    const outcome = await race(h.u2.user.id, naive);
    // Only the CHECK (balance >= 0) backstop stopped the overdraft: the naive code answered
    // with database errors where the guarded debit answers 409, so the assertion above fails.
    expect(outcome).not.toEqual({ succeeded: 10, insufficient: 90, otherErrors: [], balance: 0 });
    expect(outcome.otherErrors.length).toBeGreaterThan(0);
    expect(new Set(outcome.otherErrors)).toEqual(new Set(['23514']));
    expect(outcome.succeeded).toBe(10);
  });

  it('opposite transfers between one pair never deadlock and conserve the total', async () => {
    await mint(h.r1.user.id, 100, DP);
    await mint(h.u2.user.id, 100, DP);
    const move = (from: string, to: string) =>
      inTx((tx) =>
        transfer(tx, from, to, {
          creditType: DP,
          count: 1,
          actor: { id: h.r1.user.id },
          fromReason: null,
          toReason: null,
        }),
      );
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        i % 2 ? move(h.r1.user.id, h.u2.user.id) : move(h.u2.user.id, h.r1.user.id),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await balanceOf(t.db, h.r1.user.id, DP)).toBe(100);
    expect(await balanceOf(t.db, h.u2.user.id, DP)).toBe(100);
    expect((await ledgerViolations(t.db)).brokenGroups).toEqual([]);
  });
});

describe('ledger entries', () => {
  it('are immutable: UPDATE and DELETE through the app database throw', async () => {
    await mint(h.u3.user.id, 1);
    await expect(
      t.db.updateTable('credit_transactions').set({ reason: 'tampered' }).execute(),
    ).rejects.toThrow(/immutable/);
    await expect(t.db.deleteFrom('credit_transactions').execute()).rejects.toThrow(/immutable/);
  });

  it('record rates in paise, campaign ids, and the viewers whose scope holds to or by', async () => {
    const campaignId = '00000000-0000-4000-8000-000000000001';
    const done = await inTx(async (tx) => {
      await credit(tx, {
        userId: h.u1.user.id,
        creditType: DP,
        count: 3,
        actor: admin,
        reason: 'Top-up',
        kind: 'mint',
        ratePaise: 29,
      });
      return debit(tx, {
        userId: h.u1.user.id,
        creditType: DP,
        count: 2,
        actor: { id: h.u1.user.id },
        reason: `Campaign ${campaignId}`,
        kind: 'campaign_debit',
        campaignId,
      });
    });
    expect(done.balance).toBe(1);
    expect(done.transaction).toMatchObject({ type: 'Removed', rate: null, totalAmount: null });
    const row = await t.db
      .selectFrom('credit_transactions')
      .select(['campaign_id', 'kind'])
      .where('id', '=', done.transaction.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ campaign_id: campaignId, kind: 'campaign_debit' });
    const viewers = await t.db
      .selectFrom('credit_transaction_viewers')
      .select('viewer_id')
      .where('transaction_id', '=', done.transaction.id)
      .orderBy('viewer_id')
      .execute();
    // U1's creators S1 and R1 (not the Admin, who sees everything anyway; not R2).
    expect(viewers.map((v) => v.viewer_id)).toEqual([h.r1.user.id, h.s1.user.id].sort());
  });

  it('roll back with the transaction that wrote them', async () => {
    const before = await balanceOf(t.db, h.u3.user.id);
    await expect(
      inTx(async (tx) => {
        await credit(tx, {
          userId: h.u3.user.id,
          creditType: NORMAL,
          count: 5,
          actor: admin,
          reason: null,
          kind: 'mint',
        });
        throw new Error('the campaign insert failed');
      }),
    ).rejects.toThrow('the campaign insert failed');
    expect(await balanceOf(t.db, h.u3.user.id)).toBe(before);
  });

  it('refuse counts and rates that are not positive whole numbers', async () => {
    for (const count of [0, -1, 1.5, Number.NaN]) {
      await expect(
        inTx((tx) =>
          credit(tx, {
            userId: h.u3.user.id,
            creditType: NORMAL,
            count,
            actor: admin,
            reason: null,
            kind: 'mint',
          }),
        ),
      ).rejects.toThrow(/positive integer/);
    }
    await expect(
      inTx((tx) =>
        credit(tx, {
          userId: h.u3.user.id,
          creditType: NORMAL,
          count: 1,
          ratePaise: 0.5,
          actor: admin,
          reason: null,
          kind: 'mint',
        }),
      ),
    ).rejects.toThrow(/integer paise/);
  });
});
