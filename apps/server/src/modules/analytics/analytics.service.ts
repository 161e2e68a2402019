import {
  TOP_USERS_LIMIT,
  type AnalyticsRange,
  type AnalyticsSummary,
  type CreditType,
  type CreditsTrendRow,
  type NameValueRow,
  type TopUserRow,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import { forbidden } from '../../lib/app-error.js';
import type { Actor } from '../../policies/scope.js';
import { countUsersInScope } from '../users/users.service.js';
import * as repo from './analytics.repo.js';

/** Analytics are the Admin's (everything) and a Reseller's (its subtree): docs/product.md, Decisions. */
function allowed(actor: Actor): void {
  if (actor.role !== 'Admin' && actor.role !== 'Reseller') throw forbidden();
}

/** GET /api/analytics: the four summary cards' figures. */
export async function summary(
  ctx: AppContext,
  actor: Actor,
  range: AnalyticsRange,
): Promise<AnalyticsSummary> {
  allowed(actor);
  const win = await repo.openWindow(ctx.db, range);
  const [total, credits, types] = await Promise.all([
    countUsersInScope(ctx, actor),
    repo.creditTotals(ctx.db, actor, win),
    repo.campaignTypes(ctx.db, actor, win),
  ]);
  const campaigns = types.reduce((sum, t) => sum + t.value, 0);
  return { users: { total }, credits, campaigns: { total: campaigns } };
}

export async function creditsTrend(
  ctx: AppContext,
  actor: Actor,
  range: AnalyticsRange,
): Promise<CreditsTrendRow[]> {
  allowed(actor);
  return repo.creditsTrend(ctx.db, actor, await repo.openWindow(ctx.db, range));
}

export async function creditTypes(
  ctx: AppContext,
  actor: Actor,
  range: AnalyticsRange,
): Promise<NameValueRow[]> {
  allowed(actor);
  return repo.creditTypesUsed(ctx.db, actor, await repo.openWindow(ctx.db, range));
}

export async function campaignTypes(
  ctx: AppContext,
  actor: Actor,
  range: AnalyticsRange,
): Promise<NameValueRow[]> {
  allowed(actor);
  return repo.campaignTypes(ctx.db, actor, await repo.openWindow(ctx.db, range));
}

/**
 * Credits spent on campaigns this calendar month (UTC) by the actor's scope, itself and its
 * subtree, net of refunds, per credit type: a reseller dashboard's "Credits Used (Month)". Read
 * from the rollups like every analytics figure, so the two screens count alike. Types with none
 * are left out.
 */
export async function creditsUsedThisMonth(
  ctx: AppContext,
  actor: Actor,
): Promise<{ creditType: CreditType; count: number }[]> {
  return repo.usedPerType(ctx.db, actor, await repo.openMonthWindow(ctx.db));
}

export async function topUsers(
  ctx: AppContext,
  actor: Actor,
  range: AnalyticsRange,
): Promise<TopUserRow[]> {
  allowed(actor);
  const win = await repo.openWindow(ctx.db, range);
  return repo.topUsers(ctx.db, actor, win, TOP_USERS_LIMIT);
}
