import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BulkApproveBodySchema,
  BulkApproveReplySchema,
  CampaignFileParamsSchema,
  CampaignReplySchema,
  IdParamsSchema,
  RejectCampaignBodySchema,
} from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { requestActor } from '../audit/index.js';
import { sendStoredFile } from '../../lib/file-response.js';
import { CAMPAIGN_FILES_FOLDER } from './campaign-files.js';
import { approveCampaign, approveCampaigns, rejectCampaign } from './campaign-approval.service.js';
import { campaignFileFor } from './campaign-media.js';

/**
 * The Admin's approval queue (docs/product.md, Campaigns): Approve, Reject with a reason, and
 * Approve of several at once; and one media file of a campaign, so that whoever sees the
 * campaign sees what it will send.
 */
export const campaignApprovalRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const adminOnly = { roles: ['Admin' as const] };

  app.post(
    '/campaigns/approve',
    {
      config: adminOnly,
      schema: { body: BulkApproveBodySchema, response: { 200: BulkApproveReplySchema } },
    },
    (req) => approveCampaigns(ctx, caller(req), requestActor(req), req.body.ids),
  );

  app.post(
    '/campaigns/:id/approve',
    {
      config: adminOnly,
      schema: { params: IdParamsSchema, response: { 200: CampaignReplySchema } },
    },
    (req) => approveCampaign(ctx, caller(req), requestActor(req), req.params.id),
  );

  app.post(
    '/campaigns/:id/reject',
    {
      config: adminOnly,
      schema: {
        params: IdParamsSchema,
        body: RejectCampaignBodySchema,
        response: { 200: CampaignReplySchema },
      },
    },
    (req) => rejectCampaign(ctx, caller(req), requestActor(req), req.params.id, req.body.reason),
  );

  app.get(
    '/campaigns/:id/files/:fileId',
    { schema: { params: CampaignFileParamsSchema } },
    async (req, reply) => {
      const file = await campaignFileFor(ctx, caller(req), req.params.id, req.params.fileId);
      // A row whose object the store no longer holds answers 410 (lib/file-response.ts).
      return sendStoredFile(reply, ctx.files, CAMPAIGN_FILES_FOLDER, file);
    },
  );
};
