import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiKeyPageSchema,
  ApiKeysQuerySchema,
  CreateApiKeyBodySchema,
  CreateApiKeyReplySchema,
  IdParamsSchema,
  MessageSchema,
  ROLES,
} from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { requestActor } from '../audit/index.js';
import * as service from './api-keys.service.js';

/**
 * API keys (docs/api.md). Every role manages its own keys; the Admin also lists and revokes
 * every user's. Managing keys needs a signed-in session: a request made with an API key answers
 * 403, so a leaked key cannot make itself new keys or outlive its revocation.
 */
export const apiKeysRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const config = { roles: ROLES, sessionOnly: true };

  app.get(
    '/api-keys',
    {
      config,
      schema: { querystring: ApiKeysQuerySchema, response: { 200: ApiKeyPageSchema } },
    },
    (req) => service.listApiKeys(ctx.db, caller(req), req.query),
  );

  app.post(
    '/api-keys',
    {
      config,
      schema: { body: CreateApiKeyBodySchema, response: { 201: CreateApiKeyReplySchema } },
    },
    async (req, reply) => {
      const created = await service.createApiKey(ctx.db, caller(req), requestActor(req), req.body);
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/api-keys/:id',
    { config, schema: { params: IdParamsSchema, response: { 200: MessageSchema } } },
    async (req) => ({
      message: await service.revokeApiKey(ctx.db, caller(req), requestActor(req), req.params.id),
    }),
  );
};
