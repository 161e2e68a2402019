import {
  CREDIT_TYPES,
  type CreditType,
  type CreditTypeCount,
  type Dashboard,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../policies/scope.js';
import { creditsUsedThisMonth } from '../analytics/analytics.service.js';
import { creditsMintedThisMonth, creditsRemaining } from '../credits/credits.service.js';
import { countOpenTickets } from '../tickets/tickets.service.js';
import { countUsersInScope } from '../users/users.service.js';
import {
  countActiveCampaigns,
  countAwaitingApproval,
  userCampaignFigures,
} from './dashboard.repo.js';

/** Every credit type in the contract's order with its count from `rows`, 0 where absent. */
function everyType(rows: { creditType: CreditType; count: number }[] | null) {
  if (rows === null) return null;
  const by = new Map(rows.map((r) => [r.creditType, r.count]));
  return CREDIT_TYPES.map((creditType): CreditTypeCount => ({
    creditType,
    count: by.get(creditType) ?? 0,
  }));
}

/** GET /api/dashboard: live figures for the caller's scope (docs/product.md, Dashboards and analytics). */
export async function dashboardFor(ctx: AppContext, actor: Actor): Promise<Dashboard> {
  const isAdmin = actor.role === 'Admin';
  const isUser = actor.role === 'User';
  const isReseller = !isAdmin && !isUser;
  const [totalUsers, creditsSentMonth, creditsUsedMonth, remaining, openTickets, active, mine] =
    await Promise.all([
      // A User's scope is itself alone, so it manages nobody.
      isUser ? 0 : countUsersInScope(ctx, actor),
      // Credit figures per type; a role's cards show some of them, the others stay null.
      // Credits Sent (Month), Admin: minted this month.
      isAdmin ? creditsMintedThisMonth(ctx) : null,
      // Credits Used (Month), resellers: spent on campaigns by their scope this month, as
      // Advanced Analytics counts it.
      isReseller ? creditsUsedThisMonth(ctx, actor) : null,
      // Credits Remaining, everyone but the Admin (who mints): its own balances.
      isAdmin ? null : creditsRemaining(ctx, actor.id),
      // Open Support Tickets (Admin) / My Open Tickets: open tickets the caller sees.
      countOpenTickets(ctx, actor),
      // Active Campaigns (Admin) / My Active Campaigns: Submitted through Processing, in scope.
      isUser ? null : countActiveCampaigns(ctx.db, actor),
      // Campaigns Sent and Avg. Success Rate (User).
      isUser ? userCampaignFigures(ctx.db, actor.id) : null,
    ]);
  // The Admin's approval queue: campaigns Submitted or Pending Approval (docs/product.md, Campaigns).
  const awaitingApproval = isAdmin ? await countAwaitingApproval(ctx.db) : null;
  return {
    totalUsers,
    creditsSentMonth: everyType(creditsSentMonth),
    creditsUsedMonth: everyType(creditsUsedMonth),
    creditsRemaining: everyType(remaining),
    // A figure no card of the caller's role shows is null.
    activeCampaigns: active,
    campaignsSent: mine ? mine.sent : null,
    avgSuccessRate: mine ? mine.avgSuccessRate : null,
    openTickets,
    awaitingApproval,
  };
}
