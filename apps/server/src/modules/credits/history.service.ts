import { z } from 'zod';
import {
  CREDIT_TYPES,
  FilterableUserSchema,
  type HistoryFilters,
  type HistoryReply,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { jsonSerializer } from '../../plugins/serializer.js';
import { canSee } from '../../policies/scope.js';
import { cachedForCaller } from '../../policies/scope-users-cache.js';
import { presentCreditTransaction } from './credits.presenter.js';
import { localDayEnd, localDayStart } from '../../lib/local-day.js';
import {
  filterableUsers,
  findUserByEmail,
  historyFirstPage,
  historyRows,
  ownBalances,
  type HistoryFilter,
  type HistoryScope,
} from './history.repo.js';

/** Which entries the caller sees ("History scope": docs/product.md, Credits and the ledger). */
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

/** One page of history, as the route replies it. */
export interface HistoryPage {
  reply: HistoryReply;
  /**
   * The first page's allFilterableUsers, already serialized: up to HISTORY_FILTER_USERS_MAX
   * users by name (about 20 kB), written once and kept with the scope's user list
   * (scope-users-cache.ts) rather than again for each first page. The screen's User filter
   * searches GET /api/users as the user types, so the cap hides no one from it.
   */
  filterableUsersJson?: string;
}

const serializeUsers = jsonSerializer(z.array(FilterableUserSchema));

/** GET /api/credits/history: one keyset page; the first page also carries the filter lists. */
export async function historyPage(
  ctx: AppContext,
  actor: AuthUser,
  q: HistoryFilters,
): Promise<HistoryPage> {
  const firstPage = q.cursor === undefined;
  const scope = historyScope(actor);
  const [page, users] = await Promise.all([
    resolveFilter(ctx, actor, q).then((filter) => {
      if (!filter) return { rows: [], balances: undefined };
      if (firstPage && scope.kind !== 'all') {
        return historyFirstPage(ctx.pool, scope, filter, q.limit);
      }
      return historyRows(ctx.pool, scope, filter, q.limit).then((rows) => ({
        rows,
        balances: undefined,
      }));
    }),
    firstPage
      ? cachedForCaller(ctx, actor, async () =>
          serializeUsers(await filterableUsers(ctx.db, actor)),
        )
      : undefined,
  ]);
  const { rows } = page;
  const last = rows.at(-1);
  const reply: HistoryReply = {
    transactions: rows.map(presentCreditTransaction),
    nextCursor: rows.length === q.limit && last ? last.id : null,
  };
  if (users === undefined) return { reply };
  // An empty first page carried no balances: they are read apart.
  reply.userRemainingCredits =
    scope.kind === 'all' ? [] : (page.balances ?? (await ownBalances(ctx.pool, actor.id)));
  reply.allAvailableCreditTypes = [...CREDIT_TYPES];
  return { reply, filterableUsersJson: users };
}
