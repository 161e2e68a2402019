import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateSenderBodySchema,
  CreditRouteSchema,
  IdParamsSchema,
  SenderSchema,
  UpdateRoutesBodySchema,
  UpdateSenderBodySchema,
} from '@herald/contract';
import { caller } from '../../../plugins/auth.js';
import { requestActor } from '../../audit/index.js';
import * as senders from './senders.service.js';

const ADMIN = { roles: ['Admin'] } as const;

/** Senders and credit-type routing: Admin only; every other role gets 403 before its input is read. */
export const sendersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/delivery/senders',
    { config: ADMIN, schema: { response: { 200: z.array(SenderSchema) } } },
    (req) => senders.listSenders(app.ctx, caller(req)),
  );
  app.post(
    '/delivery/senders',
    { config: ADMIN, schema: { body: CreateSenderBodySchema, response: { 201: SenderSchema } } },
    async (req, reply) =>
      reply
        .code(201)
        .send(await senders.createSender(app.ctx, caller(req), req.body, requestActor(req))),
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
    (req) => senders.updateSender(app.ctx, caller(req), req.params.id, req.body, requestActor(req)),
  );
  app.delete(
    '/delivery/senders/:id',
    { config: ADMIN, schema: { params: IdParamsSchema } },
    async (req, reply) => {
      await senders.deleteSender(app.ctx, caller(req), req.params.id, requestActor(req));
      return reply.code(204).send();
    },
  );
  app.get(
    '/delivery/routes',
    { config: ADMIN, schema: { response: { 200: z.array(CreditRouteSchema) } } },
    (req) => senders.listRoutes(app.ctx, caller(req)),
  );
  app.put(
    '/delivery/routes',
    {
      config: ADMIN,
      schema: { body: UpdateRoutesBodySchema, response: { 200: z.array(CreditRouteSchema) } },
    },
    (req) => senders.updateRoutes(app.ctx, caller(req), req.body, requestActor(req)),
  );
};
