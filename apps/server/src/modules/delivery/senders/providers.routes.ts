import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateProviderBodySchema,
  IdParamsSchema,
  ProviderSchema,
  ProviderTestBodySchema,
  ProviderTestResultSchema,
  UpdateProviderBodySchema,
} from '@herald/contract';
import { caller } from '../../../plugins/auth.js';
import { requestActor } from '../../audit/index.js';
import { sendTestMessage } from './provider-test.js';
import * as providers from './providers.service.js';

const ADMIN = { roles: ['Admin'] } as const;

/** Providers: Admin only; every other role gets 403 before its input is read. */
export const providersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/delivery/providers',
    { config: ADMIN, schema: { response: { 200: z.array(ProviderSchema) } } },
    (req) => providers.listProviders(app.ctx, caller(req)),
  );
  app.post(
    '/delivery/providers',
    {
      config: ADMIN,
      schema: { body: CreateProviderBodySchema, response: { 201: ProviderSchema } },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(await providers.createProvider(app.ctx, caller(req), req.body, requestActor(req))),
  );
  app.put(
    '/delivery/providers/:id',
    {
      config: ADMIN,
      schema: {
        params: IdParamsSchema,
        body: UpdateProviderBodySchema,
        response: { 200: ProviderSchema },
      },
    },
    (req) =>
      providers.updateProvider(app.ctx, caller(req), req.params.id, req.body, requestActor(req)),
  );
  app.delete(
    '/delivery/providers/:id',
    { config: ADMIN, schema: { params: IdParamsSchema } },
    async (req, reply) => {
      await providers.deleteProvider(app.ctx, caller(req), req.params.id, requestActor(req));
      return reply.code(204).send();
    },
  );
  app.post(
    '/delivery/providers/:id/test',
    {
      config: ADMIN,
      schema: {
        params: IdParamsSchema,
        body: ProviderTestBodySchema,
        response: { 200: ProviderTestResultSchema },
      },
    },
    (req) => sendTestMessage(app.ctx, caller(req), req.params.id, req.body),
  );
};
