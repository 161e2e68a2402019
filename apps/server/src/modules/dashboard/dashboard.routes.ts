import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DashboardSchema, type Dashboard } from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { countInScope } from '../users/users.repo.js';
import { mintedThisMonth, remainingOf, removedThisMonth } from '../credits/credits.repo.js';

/** GET /api/dashboard: live figures for the caller's scope (decisions.md section 6). */
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  app.get('/dashboard', { schema: { response: { 200: DashboardSchema } } }, async (req) => {
    const actor = caller(req);
    const isAdmin = actor.role === 'Admin';
    const isUser = actor.role === 'User';
    const isReseller = !isAdmin && !isUser;
    const [totalUsers, creditsSentMonth, creditsUsedMonth, creditsRemaining] = await Promise.all([
      // A User's scope is itself alone, so it manages nobody.
      isUser ? 0 : countInScope(db, actor),
      // Each role's card shows one credit figure; the others stay null.
      isAdmin ? mintedThisMonth(db) : null,
      isReseller ? removedThisMonth(db, actor.id) : null,
      isUser ? remainingOf(db, actor.id) : null,
    ]);
    const figures: Dashboard = {
      totalUsers,
      creditsSentMonth,
      creditsUsedMonth,
      creditsRemaining,
      // The campaigns and tickets modules do not exist yet: null shows as a dash.
      activeCampaigns: null,
      campaignsSent: null,
      avgSuccessRate: null,
      openTickets: null,
    };
    return figures;
  });
};
