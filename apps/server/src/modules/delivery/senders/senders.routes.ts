import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParamsSchema, SenderSchema, UpdateSenderBodySchema } from '@herald/contract';
import { caller } from '../../../plugins/auth.js';
import * as senders from './senders.service.js';

const ADMIN = { roles: ['Admin'] } as const;

/** Delivery Settings: Admin only; every other role gets 403 before its input is read. */
export const sendersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/delivery/senders',
    { config: ADMIN, schema: { response: { 200: z.array(SenderSchema) } } },
    (req) => senders.listSenders(app.ctx, caller(req)),
  );
  app.put(
    '/delivery/senders/:id',
    {
      config: ADMIN,
      schema: {
        params: IdParamsSchema,
        body: UpdateSenderBodySchema,
        response: { 200: SenderSchema },
      },
    },
    (req) => senders.updateSender(app.ctx, caller(req), req.params.id, req.body),
  );
};
