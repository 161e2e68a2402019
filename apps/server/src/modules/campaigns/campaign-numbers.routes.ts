import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CampaignNumbersQuerySchema, IdParamsSchema } from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { prepareNumbers } from './campaign-numbers.js';

/**
 * A campaign's numbers for Clone and the two Resend actions (docs/product.md, Campaigns,
 * "Clone and resend"); every role, within the campaign's scope (404 outside it).
 */
export const campaignNumbersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  app.get(
    '/campaigns/:id/numbers',
    { schema: { params: IdParamsSchema, querystring: CampaignNumbersQuerySchema } },
    async (req, reply) => {
      const csv = await prepareNumbers(ctx, caller(req), req.params.id, req.query.which);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.filename}"`)
        .header('x-content-type-options', 'nosniff')
        .send(Readable.from(csv.chunks()));
    },
  );
};
