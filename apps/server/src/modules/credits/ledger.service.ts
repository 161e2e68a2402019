import { randomUUID } from 'node:crypto';
import type { CreditTransaction, CreditType } from '@herald/contract';
import type { Tx } from '../../db/database.js';
import type { LedgerKind } from '../../db/schema.js';
import { insufficientCredits } from '../../lib/app-error.js';
import { presentCreditTransaction } from './credits.presenter.js';
import * as repo from './ledger.repo.js';
import { lowBalanceCheck } from '../webhooks/index.js';

/**
 * The ledger's only entry points (docs/product.md, Credits and the ledger). Each takes the caller's open
 * transaction and never opens its own, so a movement commits or rolls back with whatever the
 * caller writes next to it (an idempotency key, a campaign). Invariant kept: for every user and
 * credit type, balance = Σ Added − Σ Removed ≥ 0.
 */

export type DebitKind = Extract<LedgerKind, 'burn' | 'transfer_out' | 'campaign_debit'>;
export type CreditKind = Extract<
  LedgerKind,
  'mint' | 'transfer_in' | 'campaign_refund' | 'carry_forward'
>;

interface MoveBase {
  /** The account whose balance moves: the entry's "to". */
  userId: string;
  creditType: CreditType;
  /** A positive whole number of credits. */
  count: number;
  /** Who makes the movement: the entry's "by". */
  actor: { id: string };
  reason: string | null;
  campaignId?: string | null;
  /** Integer paise per credit; the entry's total is count × rate. Null or absent: no price. */
  ratePaise?: number | null;
  /** Entries of one business transaction share it; a new one is made when absent. */
  groupId?: string;
}
export interface DebitMove extends MoveBase {
  kind: DebitKind;
}
export interface CreditMove extends MoveBase {
  kind: CreditKind;
}

export interface LedgerResult {
  transaction: CreditTransaction;
  /** The account's balance after the movement. */
  balance: number;
  groupId: string;
}

function checkAmounts(move: MoveBase): void {
  // Programming errors, not user input: the routes validate counts and rates first.
  if (!Number.isSafeInteger(move.count) || move.count <= 0) {
    throw new Error(`ledger count must be a positive integer, got ${move.count}`);
  }
  const rate = move.ratePaise;
  if (rate !== undefined && rate !== null && (!Number.isSafeInteger(rate) || rate < 0)) {
    throw new Error(`ledger rate must be integer paise, got ${rate}`);
  }
}

async function takeOff(tx: Tx, move: DebitMove): Promise<number> {
  const after = await repo.decrementBalance(tx, move.userId, move.creditType, move.count);
  if (after === null) throw insufficientCredits();
  await lowBalanceCheck(tx, move, after.balance, after.threshold);
  return after.balance;
}

function putOn(tx: Tx, move: CreditMove): Promise<number> {
  return repo.incrementBalance(tx, move.userId, move.creditType, move.count);
}

async function record(
  tx: Tx,
  move: DebitMove | CreditMove,
  type: 'Added' | 'Removed',
  groupId: string,
  balance: number,
): Promise<LedgerResult> {
  const row = await repo.insertEntry(tx, {
    groupId,
    toUserId: move.userId,
    byUserId: move.actor.id,
    type,
    creditType: move.creditType,
    count: move.count,
    ratePaise: move.ratePaise ?? null,
    reason: move.reason,
    kind: move.kind,
    campaignId: move.campaignId ?? null,
  });
  return { transaction: presentCreditTransaction(row), balance, groupId };
}

/** Removes credits from one account; 409 `insufficientCredits` when its balance is short. */
export async function debit(tx: Tx, move: DebitMove): Promise<LedgerResult> {
  checkAmounts(move);
  const balance = await takeOff(tx, move);
  return record(tx, move, 'Removed', move.groupId ?? randomUUID(), balance);
}

/**
 * Refuses as `debit` would (409 `insufficientCredits`) when the balance is short of `count`, and
 * moves nothing: a test key's campaign meets the live answer but is never charged.
 */
export async function requireBalance(
  tx: Tx,
  move: Pick<MoveBase, 'userId' | 'creditType' | 'count'>,
): Promise<void> {
  if ((await repo.balanceOf(tx, move.userId, move.creditType)) < move.count) {
    throw insufficientCredits();
  }
}

/** Adds credits to one account. */
export async function credit(tx: Tx, move: CreditMove): Promise<LedgerResult> {
  checkAmounts(move);
  const balance = await putOn(tx, move);
  return record(tx, move, 'Added', move.groupId ?? randomUUID(), balance);
}

export interface TransferMove {
  creditType: CreditType;
  count: number;
  actor: { id: string };
  ratePaise?: number | null;
  /** Reason on the source's Removed entry. */
  fromReason: string | null;
  /** Reason on the target's Added entry. */
  toReason: string | null;
}

export interface TransferResult {
  out: LedgerResult;
  in: LedgerResult;
  groupId: string;
}

/**
 * Moves credits between two accounts: the source's Removed (transfer_out) and the target's
 * Added (transfer_in) share one group and sum to zero. The two balance rows are locked in
 * user-id order, so two opposite transfers between the same pair queue instead of
 * deadlocking (PostgreSQL docs, 13.3.4).
 */
export async function transfer(
  tx: Tx,
  fromUserId: string,
  toUserId: string,
  move: TransferMove,
): Promise<TransferResult> {
  if (fromUserId === toUserId) throw new Error('a transfer needs two different accounts');
  const groupId = randomUUID();
  const shared = {
    creditType: move.creditType,
    count: move.count,
    actor: move.actor,
    ratePaise: move.ratePaise ?? null,
    groupId,
  };
  const out: DebitMove = {
    ...shared,
    userId: fromUserId,
    kind: 'transfer_out',
    reason: move.fromReason,
  };
  const into: CreditMove = {
    ...shared,
    userId: toUserId,
    kind: 'transfer_in',
    reason: move.toReason,
  };
  checkAmounts(out);

  let fromBalance: number;
  let toBalance: number;
  if (fromUserId < toUserId) {
    fromBalance = await takeOff(tx, out);
    toBalance = await putOn(tx, into);
  } else {
    toBalance = await putOn(tx, into);
    fromBalance = await takeOff(tx, out);
  }
  // Entries are written in a fixed order whatever the lock order: the target's first.
  const inResult = await record(tx, into, 'Added', groupId, toBalance);
  const outResult = await record(tx, out, 'Removed', groupId, fromBalance);
  return { out: outResult, in: inResult, groupId };
}
