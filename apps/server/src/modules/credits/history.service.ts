import { CREDIT_TYPES, type HistoryFilters, type HistoryReply } from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { canSee } from '../../policies/scope.js';
import { cachedForCaller } from '../../policies/scope-users-cache.js';
import { presentCreditTransaction } from './credits.presenter.js';
import { localDayEnd, localDayStart } from '../../lib/local-day.js';
import {
  filterableUsers,
  findUserByEmail,
  historyRows,
  ownBalances,
  type HistoryFilter,
  type HistoryScope,
} from './history.repo.js';

/** Which entries the caller sees (decisions.md section 3, "History scope"). */
export function historyScope(actor: AuthUser): HistoryScope {
  if (actor.role === 'Admin') return { kind: 'all' };
  if (actor.role === 'User') return { kind: 'to', userId: actor.id };
  return { kind: 'viewer', viewerId: actor.id };
}

/**
 * The query's filters as the repository takes them, or null when the filter's user is not one
 * of the caller's relevant users (the answer is then an empty list, not an error).
 */
export async function resolveFilter(
  ctx: AppContext,
  actor: AuthUser,
  q: HistoryFilters,
): Promise<HistoryFilter | null> {
  let userId: string | undefined;
  if (q.userEmail !== undefined) {
    if (q.userEmail === actor.email) {
      userId = actor.id;
    } else {
      const target = await findUserByEmail(ctx.db, q.userEmail);
      if (!target || !canSee(actor, target)) return null;
      userId = target.id;
    }
  }
  return {
    userId,
    type: q.transactionType,
    creditType: q.creditType,
    from: q.startDate ? localDayStart(q.startDate, q.tzOffset) : undefined,
    // End Date is inclusive: up to the start of the next local day.
    until: q.endDate ? localDayEnd(q.endDate, q.tzOffset) : undefined,
    before: q.cursor,
  };
}

/** GET /api/credits/history: one keyset page; the first page also carries the filter lists. */
export async function historyPage(
  ctx: AppContext,
  actor: AuthUser,
  q: HistoryFilters,
): Promise<HistoryReply> {
  const firstPage = q.cursor === undefined;
  const [rows, extras] = await Promise.all([
    resolveFilter(ctx, actor, q).then((filter) =>
      filter ? historyRows(ctx.pool, historyScope(actor), filter, q.limit) : [],
    ),
    firstPage
      ? Promise.all([
          actor.role === 'Admin' ? [] : ownBalances(ctx.db, actor.id),
          cachedForCaller(ctx, actor, () => filterableUsers(ctx.db, actor)),
        ])
      : null,
  ]);
  const last = rows.at(-1);
  const reply: HistoryReply = {
    transactions: rows.map(presentCreditTransaction),
    nextCursor: rows.length === q.limit && last ? last.id : null,
  };
  if (extras) {
    reply.userRemainingCredits = extras[0];
    reply.allAvailableCreditTypes = [...CREDIT_TYPES];
    reply.allFilterableUsers = extras[1];
  }
  return reply;
}
