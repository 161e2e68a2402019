import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DashboardSchema, type Dashboard } from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { countInScope } from '../users/users.repo.js';

/** GET /api/dashboard: live figures for the caller's scope (decisions.md section 6). */
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/dashboard', { schema: { response: { 200: DashboardSchema } } }, async (req) => {
    const actor = caller(req);
    const figures: Dashboard = {
      // A User's scope is itself alone, so it manages nobody.
      totalUsers: actor.role === 'User' ? 0 : await countInScope(app.ctx.db, actor),
      // The campaigns, credits and tickets modules do not exist yet: null shows as a dash.
      activeCampaigns: null,
      campaignsSent: null,
      creditsSentMonth: null,
      creditsUsedMonth: null,
      creditsRemaining: null,
      avgSuccessRate: null,
      openTickets: null,
    };
    return figures;
  });
};
