import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createWebhookBodySchema,
  CreateWebhookReplySchema,
  IdParamsSchema,
  MessageSchema,
  ROLES,
  RotateWebhookSecretReplySchema,
  updateWebhookBodySchema,
  WebhookDeliveriesQuerySchema,
  WebhookDeliveryPageSchema,
  WebhookEndpointReplySchema,
  WebhookListSchema,
  WebhookSettingsBodySchema,
} from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { requestActor } from '../audit/index.js';
import * as service from './webhooks.service.js';

/**
 * Webhook endpoints (docs/api.md, Webhooks): every role manages its own. Plain http is accepted
 * only where the server allows private addresses (WEBHOOK_ALLOW_PRIVATE).
 */
export const webhooksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const config = { roles: ROLES };
  const httpsOnly = !ctx.config.webhooks.allowPrivate;

  app.get('/webhooks', { config, schema: { response: { 200: WebhookListSchema } } }, (req) =>
    service.listEndpoints(ctx, caller(req)),
  );

  app.post(
    '/webhooks',
    {
      config,
      schema: {
        body: createWebhookBodySchema(httpsOnly),
        response: { 201: CreateWebhookReplySchema },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(await service.createEndpoint(ctx, caller(req), requestActor(req), req.body)),
  );

  app.put(
    '/webhooks/settings',
    {
      config,
      schema: { body: WebhookSettingsBodySchema, response: { 200: MessageSchema } },
    },
    async (req) => ({
      message: await service.setLowBalanceThreshold(ctx, caller(req), req.body.lowBalanceThreshold),
    }),
  );

  app.patch(
    '/webhooks/:id',
    {
      config,
      schema: {
        params: IdParamsSchema,
        body: updateWebhookBodySchema(httpsOnly),
        response: { 200: WebhookEndpointReplySchema },
      },
    },
    (req) => service.updateEndpoint(ctx, caller(req), requestActor(req), req.params.id, req.body),
  );

  app.delete(
    '/webhooks/:id',
    { config, schema: { params: IdParamsSchema, response: { 200: MessageSchema } } },
    async (req) => ({
      message: await service.deleteEndpoint(ctx, caller(req), requestActor(req), req.params.id),
    }),
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      config,
      schema: { params: IdParamsSchema, response: { 200: RotateWebhookSecretReplySchema } },
    },
    (req) => service.rotateSecret(ctx, caller(req), requestActor(req), req.params.id),
  );

  app.post(
    '/webhooks/:id/test',
    { config, schema: { params: IdParamsSchema, response: { 202: MessageSchema } } },
    async (req, reply) =>
      reply.code(202).send({ message: await service.sendTest(ctx, caller(req), req.params.id) }),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config,
      schema: {
        params: IdParamsSchema,
        querystring: WebhookDeliveriesQuerySchema,
        response: { 200: WebhookDeliveryPageSchema },
      },
    },
    (req) => service.listDeliveries(ctx, caller(req), req.params.id, req.query),
  );
};
