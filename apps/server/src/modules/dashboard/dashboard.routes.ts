import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DashboardSchema } from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { dashboardFor } from './dashboard.service.js';

/** GET /api/dashboard: live figures for the caller's scope (docs/product.md, Dashboards and analytics). */
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/dashboard', { schema: { response: { 200: DashboardSchema } } }, (req) =>
    dashboardFor(app.ctx, caller(req)),
  );
};
