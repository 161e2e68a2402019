import {
  server as msg,
  type Balances,
  type BalancesFilters,
  type CreateCreditInput,
  type CreateCreditReply,
  type CreditListFilters,
  type CreditTransaction,
  type CreditTransactionList,
  type CreditType,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { badRequest, conflict, notFound } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { canSee, isBelow, type Actor } from '../../policies/scope.js';
import { presentCreditTransaction } from './credits.presenter.js';
import * as reads from './credits.repo.js';
import * as ledger from './ledger.service.js';
import { findUserByEmailForShare } from './ledger.repo.js';
import { notify } from '../notifications/notifications.service.js';
import { recordAudit, type AuditActor } from '../audit/index.js';

/**
 * POST /api/credits inside the caller's transaction (docs/product.md, Credits and the ledger). Admin mints and
 * burns; a Reseller or Sub-Reseller transfers from its own balance to a user of its subtree,
 * or takes credits back. The target must be strictly below the caller and Active.
 */
export async function createCredit(
  tx: Tx,
  actor: AuthUser,
  audit: AuditActor,
  input: CreateCreditInput,
): Promise<CreateCreditReply> {
  if (input.to === actor.email.toLowerCase()) throw badRequest(msg.creditToSelf);
  const target = await findUserByEmailForShare(tx, input.to);
  // Someone outside the scope reads exactly like someone who does not exist.
  if (!target || !isBelow(actor, target)) throw notFound(msg.creditRecipientNotFound);
  if (target.status !== 'Active') throw conflict(msg.creditRecipientBlocked);

  const reason = input.reason ?? null;
  const base = { creditType: input.creditType, count: input.count, ratePaise: input.rate, actor };
  let transactions: CreditTransaction[];
  /** The target's balance of the type after the move. */
  let balance: number;
  if (actor.role === 'Admin') {
    const done =
      input.type === 'Added'
        ? await ledger.credit(tx, { ...base, userId: target.id, kind: 'mint', reason })
        : await ledger.debit(tx, { ...base, userId: target.id, kind: 'burn', reason });
    transactions = [done.transaction];
    balance = done.balance;
  } else if (input.type === 'Added') {
    const done = await ledger.transfer(tx, actor.id, target.id, {
      ...base,
      fromReason: `Transfer to ${target.email}`,
      toReason: reason,
    });
    transactions = [done.in.transaction, done.out.transaction];
    balance = done.in.balance;
  } else {
    const done = await ledger.transfer(tx, target.id, actor.id, {
      ...base,
      fromReason: reason,
      toReason: `Returned from ${target.email}`,
    });
    transactions = [done.out.transaction, done.in.transaction];
    balance = done.out.balance;
  }
  // One entry on the account whose balance moved; the caller's own side is in the ledger.
  const added = input.type === 'Added';
  await recordAudit(tx, {
    actor: audit,
    action: added ? 'credits.add' : 'credits.remove',
    target: { type: 'user', id: target.id, label: target.email, subjectUserId: target.id },
    changes: {
      creditType: { before: null, after: input.creditType },
      amount: { before: null, after: input.count },
      balance: { before: added ? balance - input.count : balance + input.count, after: balance },
      ...(reason !== null && { reason: { before: null, after: reason } }),
    },
  });
  // The account that moved hears of it, in the same transaction.
  await notify(tx, {
    userId: target.id,
    eventType: 'credits',
    message: (input.type === 'Added' ? msg.notifyCreditsAdded : msg.notifyCreditsRemoved)(
      input.count,
      input.creditType,
    ),
    link: '/history',
  });
  // The target's entry first, then the caller's own (when there is one).
  return { message: msg.creditDone, transactions };
}

/** One keyset page: a row past `limit` only tells that another page follows. */
function page(rows: Parameters<typeof presentCreditTransaction>[0][], limit: number) {
  const shown = rows.slice(0, limit).map(presentCreditTransaction);
  const last = shown.at(-1);
  return { transactions: shown, nextCursor: rows.length > limit && last ? last.id : null };
}

/** GET /api/credits: the caller's scope, newest first, a page at a time. */
export async function listCredits(
  ctx: AppContext,
  actor: Actor,
  query: CreditListFilters,
): Promise<CreditTransactionList> {
  const rows = await reads.listInScope(ctx.db, actor, query.limit + 1, query.cursor);
  return page(rows, query.limit);
}

/** GET /api/credits/user/{email}: entries on one account of the caller's scope. */
export async function listUserCredits(
  ctx: AppContext,
  actor: Actor,
  email: string,
  query: CreditListFilters,
): Promise<CreditTransactionList> {
  const user = await reads.findScopedUserByEmail(ctx.db, email.trim().toLowerCase());
  if (!user || !canSee(actor, user)) throw notFound(msg.userNotFound);
  const rows = await reads.listForAccount(ctx.db, user.id, query.limit + 1, query.cursor);
  return page(rows, query.limit);
}

/** GET /api/v1/ledger: the entries on the caller's own account, newest first, a page at a time. */
export async function listOwnCredits(
  ctx: AppContext,
  actor: Actor,
  query: CreditListFilters,
): Promise<CreditTransactionList> {
  return page(
    await reads.listForAccount(ctx.db, actor.id, query.limit + 1, query.cursor),
    query.limit,
  );
}

/** GET /api/v1/balances: the caller's own balance of every type it ever held. */
export function ownBalances(ctx: AppContext, actor: Actor) {
  return reads.balancesOf(ctx.db, actor.id);
}

/**
 * GET /api/credits/balances: email → credit type → balance, bounded. With `email`, that one
 * user of the caller's scope (404 outside it, like /api/credits/user/{email}); else a keyset
 * page of the scope's users holding balance rows, by email; `nextCursor` (the page's last
 * email) when more follow.
 */
export async function balances(
  ctx: AppContext,
  actor: Actor,
  query: BalancesFilters,
): Promise<{ balances: Balances; nextCursor: string | null }> {
  if (query.email !== undefined) {
    const user = await reads.findScopedUserByEmail(ctx.db, query.email);
    if (!user || !canSee(actor, user)) throw notFound(msg.userNotFound);
    const own: Record<string, number> = {};
    for (const r of await reads.balancesOf(ctx.db, user.id)) own[r.creditType] = r.balance;
    return { balances: { [query.email]: own }, nextCursor: null };
  }
  const page = await reads.balancesPage(ctx.db, actor, query.limit, query.cursor);
  // Keys in the page's order: by email as the database orders them, then by credit type.
  const out: Balances = {};
  for (const email of page.emails) out[email] = {};
  for (const r of page.rows) out[r.email]![r.creditType] = r.balance;
  return { balances: out, nextCursor: page.more ? (page.emails.at(-1) ?? null) : null };
}

/** Credits the Admins minted this calendar month (UTC) per type, types minted only. */
export function creditsMintedThisMonth(
  ctx: AppContext,
): Promise<{ creditType: CreditType; count: number }[]> {
  return reads.mintedThisMonthByType(ctx.db);
}

/** One user's balance rows per credit type (types it never held are absent). */
export async function creditsRemaining(
  ctx: AppContext,
  userId: string,
): Promise<{ creditType: CreditType; count: number }[]> {
  const rows = await reads.balancesOf(ctx.db, userId);
  return rows.map((r) => ({ creditType: r.creditType, count: r.balance }));
}
