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
  RATE_LIMITS,
  server as msg,
} from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { campaignActionsRoutes } from './campaign-actions.routes.js';
import { campaignNumbersRoutes } from './campaign-numbers.routes.js';
import { idempotencyKeyOf, runIdempotent } from '../../plugins/idempotency.js';
import { discardFiles } from './campaign-files.js';
import { readCampaignUpload } from './campaigns.input.js';
import * as service from './campaigns.service.js';

/** The per-user rate-limit key of campaign creation (RATE_LIMITS.campaignCreatePerUser). */
export const campaignCreateLimitKey = (userId: string) => `campaign-create:user:${userId}`;

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
        const actor = caller(req);
        const key = idempotencyKeyOf(req);
        // Counted before a byte of the upload is read (429 with Retry-After past the limit).
        const limitKey = campaignCreateLimitKey(actor.id);
        await ctx.rateLimiter.consume([[limitKey, RATE_LIMITS.campaignCreatePerUser]]);
        const upload = await readCampaignUpload(req, ctx.stagingDir);
        try {
          const checked = service.checkUpload(upload);
          const { templateId, templateValues } = checked.fields;
          if (templateId !== undefined) {
            checked.template = await ctx.dispatch.template(
              ctx.db,
              checked.fields.creditType,
              templateId,
              templateValues ?? [],
            );
          }
          const owner = await service.resolveOwner(ctx, actor, checked.fields.userEmail);
          const files = await service.commitFiles(ctx.files, upload.files);
          const result = await runIdempotent(
            ctx.db,
            {
              userId: actor.id,
              key,
              endpoint: 'POST /api/campaigns',
              status: 201,
              request: {
                fields: checked.fields,
                files: upload.files.map((f) => ({
                  field: f.field,
                  name: f.originalName,
                  size: f.size,
                  sha256: f.sha256,
                })),
              },
              replySchema: CreateCampaignReplySchema,
            },
            async (tx) => ({
              message: msg.campaignCreated,
              campaign: await service.insertCampaign(tx, actor, owner, checked, files),
            }),
          );
          // A replay stored nothing new: this request's copies of the files are not needed.
          if (result.replayed) {
            // A replay did no new work: it gives its counted attempt back.
            await ctx.rateLimiter.refund([limitKey]);
            await discardFiles(ctx.files, upload.files);
            reply.header('idempotent-replayed', 'true');
          }
          return await reply.code(result.status).send(result.body);
        } catch (err) {
          await discardFiles(ctx.files, upload.files);
          throw err;
        }
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
