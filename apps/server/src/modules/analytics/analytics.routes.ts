import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AnalyticsQuerySchema,
  AnalyticsSummarySchema,
  CreditsTrendSchema,
  NameValueRowsSchema,
  TopUsersSchema,
} from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import * as analytics from './analytics.service.js';

/**
 * Advanced Analytics (docs/product.md, Decisions): Admin everything, Reseller its subtree,
 * Sub-Reseller and User 403; every route takes `?range=7|30|90|all`.
 */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const querystring = AnalyticsQuerySchema;
  app.get(
    '/analytics',
    { schema: { querystring, response: { 200: AnalyticsSummarySchema } } },
    (req) => analytics.summary(app.ctx, caller(req), req.query.range),
  );
  app.get(
    '/analytics/credits-trend',
    { schema: { querystring, response: { 200: CreditsTrendSchema } } },
    (req) => analytics.creditsTrend(app.ctx, caller(req), req.query.range),
  );
  app.get(
    '/analytics/credit-types',
    { schema: { querystring, response: { 200: NameValueRowsSchema } } },
    (req) => analytics.creditTypes(app.ctx, caller(req), req.query.range),
  );
  app.get(
    '/analytics/campaign-types',
    { schema: { querystring, response: { 200: NameValueRowsSchema } } },
    (req) => analytics.campaignTypes(app.ctx, caller(req), req.query.range),
  );
  app.get(
    '/analytics/top-users',
    { schema: { querystring, response: { 200: TopUsersSchema } } },
    (req) => analytics.topUsers(app.ctx, caller(req), req.query.range),
  );
};
