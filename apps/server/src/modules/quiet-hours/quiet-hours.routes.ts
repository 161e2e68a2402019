import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MANAGER_ROLES,
  QuietHoursBodySchema,
  QuietHoursReplySchema,
  QuietHoursSchema,
} from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { requestActor } from '../audit/index.js';
import { getQuietHours, setQuietHours } from './quiet-hours.service.js';

/**
 * GET /api/settings/quiet-hours: the caller's own window and the one in force (every role; a
 * User sees the one its campaigns get). PUT: the caller's own window, for the roles that own a
 * subtree (Admin, Reseller, Sub-Reseller); a User gets 403 (docs/product.md, Quiet hours).
 */
export const quietHoursRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/settings/quiet-hours', { schema: { response: { 200: QuietHoursSchema } } }, (req) =>
    getQuietHours(app.ctx.db, caller(req).id),
  );

  app.put(
    '/settings/quiet-hours',
    {
      config: { roles: MANAGER_ROLES },
      schema: { body: QuietHoursBodySchema, response: { 200: QuietHoursReplySchema } },
    },
    (req) => setQuietHours(app.ctx.db, caller(req).id, req.body, requestActor(req)),
  );
};
