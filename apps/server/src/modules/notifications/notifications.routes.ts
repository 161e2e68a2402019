import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IdParamsSchema,
  MessageSchema,
  NotificationListQuerySchema,
  NotificationListSchema,
  server as msg,
} from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import * as service from './notifications.service.js';

/**
 * The caller's own notifications (docs/product.md, Announcements and alerts): every role reads and
 * marks its own; another's answers 404.
 */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get(
    '/notifications',
    {
      schema: {
        querystring: NotificationListQuerySchema,
        response: { 200: NotificationListSchema },
      },
    },
    (req) => service.listMine(ctx.db, caller(req).id, req.query),
  );

  // Declared before `/:id/read`; find-my-way prefers the static segment anyway.
  app.put(
    '/notifications/read-all',
    { schema: { response: { 200: MessageSchema } } },
    async (req) => {
      await service.markAllRead(ctx.db, caller(req).id);
      return { message: msg.notificationsAllRead };
    },
  );

  app.put('/notifications/:id/read', { schema: { params: IdParamsSchema } }, async (req, reply) => {
    await service.markRead(ctx.db, caller(req).id, req.params.id);
    return reply.code(204).send();
  });
};
