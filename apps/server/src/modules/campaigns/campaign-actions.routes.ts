import fs from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CampaignReplySchema,
  CampaignReportSchema,
  CampaignReportViewQuerySchema,
  IdParamsSchema,
  RATE_LIMITS,
  ReportExportQuerySchema,
  UpdateCampaignStatusBodySchema,
  UploadReportReplySchema,
} from '@herald/contract';
import { withMultipart } from '../../plugins/multipart.js';
import { caller } from '../../plugins/auth.js';
import { requestActor } from '../audit/index.js';
import { visibleCampaign } from './campaign-access.js';
import { prepareDownload } from './campaign-download.js';
import { readReportUpload } from './campaign-report.input.js';
import { getReport, prepareReportExport, uploadReport } from './campaign-report.service.js';
import { changeStatus } from './campaign-status.service.js';
import { campaignApprovalRoutes } from './campaign-approval.routes.js';

/** The per-user rate-limit key of report uploads (RATE_LIMITS.reportUploadPerUser). */
export const reportUploadLimitKey = (userId: string) => `report-upload:user:${userId}`;

/**
 * Campaign actions (docs/product.md, Campaigns): status changes and the
 * owner's cancellation request, delivery reports, and the asset download.
 */
export const campaignActionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.put(
    '/campaigns/status/:id',
    {
      schema: {
        params: IdParamsSchema,
        body: UpdateCampaignStatusBodySchema,
        response: { 200: CampaignReplySchema },
      },
    },
    (req) =>
      changeStatus(
        ctx,
        caller(req),
        requestActor(req),
        req.params.id,
        req.body.status,
        req.body.reason,
      ),
  );

  await withMultipart(app, (uploads) => {
    uploads.post(
      '/campaigns/:id/upload-report',
      {
        config: { roles: ['Admin'] },
        schema: { params: IdParamsSchema, response: { 200: UploadReportReplySchema } },
      },
      async (req) => {
        const actor = caller(req);
        // Counted before the file is read (429 with Retry-After past the limit).
        await ctx.rateLimiter.consume([
          [reportUploadLimitKey(actor.id), RATE_LIMITS.reportUploadPerUser],
        ]);
        // An unknown id answers 404 before the file is read (checked again under the lock).
        await visibleCampaign(ctx.db, actor, req.params.id);
        const file = await readReportUpload(req, ctx.stagingDir);
        try {
          return await uploadReport(ctx, actor, requestActor(req), req.params.id, file);
        } finally {
          await fs.rm(file.filePath, { force: true });
        }
      },
    );
  });

  app.get(
    '/campaigns/:id/report',
    {
      schema: {
        params: IdParamsSchema,
        querystring: CampaignReportViewQuerySchema,
        response: { 200: CampaignReportSchema },
      },
    },
    (req) => getReport(ctx, caller(req), req.params.id, req.query),
  );

  app.get(
    '/campaigns/:id/report/export',
    { schema: { params: IdParamsSchema, querystring: ReportExportQuerySchema } },
    async (req, reply) => {
      const csv = await prepareReportExport(ctx, caller(req), req.params.id, req.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.filename}"`)
        .header('x-content-type-options', 'nosniff')
        .send(Readable.from(csv.chunks()));
    },
  );

  app.get('/campaigns/:id/download', { schema: { params: IdParamsSchema } }, async (req, reply) => {
    const zip = await prepareDownload(ctx, caller(req), req.params.id);
    const out = new PassThrough();
    // Headers are sent by now: a failure can only cut the download short, never answer JSON.
    zip.write(out).catch((err: unknown) => {
      if (out.destroyed) return req.log.info('campaign download: the client left early');
      req.log.error({ err }, 'campaign download failed');
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    });
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${zip.filename}"`)
      .header('x-content-type-options', 'nosniff')
      .send(out);
  });

  await app.register(campaignApprovalRoutes);
};
