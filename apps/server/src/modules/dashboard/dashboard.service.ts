import type { Dashboard } from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../policies/scope.js';
import {
  creditsMintedThisMonth,
  creditsRemaining,
  creditsRemovedThisMonth,
} from '../credits/credits.service.js';
import { countOpenTickets } from '../tickets/tickets.service.js';
import { countUsersInScope } from '../users/users.service.js';
import {
  countActiveCampaigns,
  countAwaitingApproval,
  userCampaignFigures,
} from './dashboard.repo.js';

/** GET /api/dashboard: live figures for the caller's scope (docs/product.md, Decisions). */
export async function dashboardFor(ctx: AppContext, actor: Actor): Promise<Dashboard> {
  const isAdmin = actor.role === 'Admin';
  const isUser = actor.role === 'User';
  const isReseller = !isAdmin && !isUser;
  const [totalUsers, creditsSentMonth, creditsUsedMonth, remaining, openTickets, active, mine] =
    await Promise.all([
      // A User's scope is itself alone, so it manages nobody.
      isUser ? 0 : countUsersInScope(ctx, actor),
      // Each role's card shows one credit figure; the others stay null.
      isAdmin ? creditsMintedThisMonth(ctx) : null,
      isReseller ? creditsRemovedThisMonth(ctx, actor.id) : null,
      isUser ? creditsRemaining(ctx, actor.id) : null,
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
    creditsSentMonth,
    creditsUsedMonth,
    creditsRemaining: remaining,
    // A figure no card of the caller's role shows is null.
    activeCampaigns: active,
    campaignsSent: mine ? mine.sent : null,
    avgSuccessRate: mine ? mine.avgSuccessRate : null,
    openTickets,
    awaitingApproval,
  };
}
