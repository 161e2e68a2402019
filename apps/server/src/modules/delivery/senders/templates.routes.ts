import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CampaignTemplatesQuerySchema,
  CampaignTemplatesSchema,
  CreateTemplateBodySchema,
  IdParamsSchema,
  ROLES,
  SenderTemplateSchema,
} from '@herald/contract';
import { caller } from '../../../plugins/auth.js';
import { requestActor } from '../../audit/index.js';
import * as templates from './templates.service.js';

const ADMIN = { roles: ['Admin'] } as const;

/**
 * WhatsApp templates: the Admin keeps each WhatsApp sender's; every role reads those its
 * campaign form offers for a credit type.
 */
export const templatesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/delivery/senders/:id/templates',
    {
      config: ADMIN,
      schema: { params: IdParamsSchema, response: { 200: z.array(SenderTemplateSchema) } },
    },
    (req) => templates.listSenderTemplates(app.ctx, caller(req), req.params.id),
  );
  app.post(
    '/delivery/senders/:id/templates',
    {
      config: ADMIN,
      schema: {
        params: IdParamsSchema,
        body: CreateTemplateBodySchema,
        response: { 201: SenderTemplateSchema },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(
          await templates.addTemplate(
            app.ctx,
            caller(req),
            req.params.id,
            req.body,
            requestActor(req),
          ),
        ),
  );
  app.delete(
    '/delivery/templates/:id',
    { config: ADMIN, schema: { params: IdParamsSchema } },
    async (req, reply) => {
      await templates.removeTemplate(app.ctx, caller(req), req.params.id, requestActor(req));
      return reply.code(204).send();
    },
  );
  app.get(
    '/delivery/campaign-templates',
    {
      config: { roles: ROLES },
      schema: {
        querystring: CampaignTemplatesQuerySchema,
        response: { 200: CampaignTemplatesSchema },
      },
    },
    async (req) => ({
      templates: await templates.campaignTemplates(app.ctx.db, req.query.creditType),
    }),
  );
};
