import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { withMultipart } from '../../plugins/multipart.js';
import {
  CampaignDetailSchema,
  CampaignListQuerySchema,
  CampaignListSchema,
  CampaignRecipientsQuerySchema,
  CampaignRecipientsSchema,
  CampaignUserParamsSchema,
  CreateCampaignReplySchema,
  IdParamsSchema,
} from '@herald/contract';
import { requestActor } from '../audit/index.js';
import { caller, isTestCaller } from '../../plugins/auth.js';
import { campaignActionsRoutes } from './campaign-actions.routes.js';
import { campaignNumbersRoutes } from './campaign-numbers.routes.js';
import { idempotencyKeyOf } from '../../plugins/idempotency.js';
import { createCampaign } from './campaign-create.service.js';
import { readCampaignUpload } from './campaigns.input.js';
import * as service from './campaigns.service.js';

/**
 * Campaigns (docs/product.md, Campaigns): create and read, every role; the
 * actions after creation (status, reports, download) live in campaign-actions.routes.ts.
 */
export const campaignsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  // A staged file a crash leaves is removed at the next start (lib/storage/staging.ts); a stored
  // one no row names, by the hourly `sweep-uploads` job (jobs/).

  await withMultipart(app, (uploads) => {
    uploads.post(
      '/campaigns',
      { schema: { response: { 201: CreateCampaignReplySchema } } },
      async (req, reply) => {
        const result = await createCampaign(ctx, {
          actor: caller(req),
          audit: requestActor(req),
          key: idempotencyKeyOf(req),
          endpoint: 'POST /api/campaigns',
          test: isTestCaller(req),
          // Counted before a byte of the upload is read (429 with Retry-After past the limit).
          read: () => readCampaignUpload(req, ctx.stagingDir),
        });
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        return await reply.code(result.status).send(result.body);
      },
    );
  });

  app.get(
    '/campaigns',
    { schema: { querystring: CampaignListQuerySchema, response: { 200: CampaignListSchema } } },
    (req) => service.listCampaigns(ctx, caller(req), req.query),
  );

  app.get(
    '/campaigns/user/:email',
    {
      schema: {
        params: CampaignUserParamsSchema,
        querystring: CampaignListQuerySchema,
        response: { 200: CampaignListSchema },
      },
    },
    (req) => service.listCampaigns(ctx, caller(req), req.query, req.params.email),
  );

  app.get(
    '/campaigns/:id',
    { schema: { params: IdParamsSchema, response: { 200: CampaignDetailSchema } } },
    (req) => service.getCampaign(ctx, caller(req), req.params.id),
  );

  app.get(
    '/campaigns/:id/recipients',
    {
      schema: {
        params: IdParamsSchema,
        querystring: CampaignRecipientsQuerySchema,
        response: { 200: CampaignRecipientsSchema },
      },
    },
    (req) => service.listRecipients(ctx, caller(req), req.params.id, req.query),
  );

  await app.register(campaignActionsRoutes);
  await app.register(campaignNumbersRoutes);
};
