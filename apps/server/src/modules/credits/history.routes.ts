import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PassThrough } from 'node:stream';
import { HistoryQuerySchema, HistoryReplySchema, type HistoryReply } from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { jsonSerializer } from '../../plugins/serializer.js';
import { prepareHistoryExport, XLSX_CONTENT_TYPE } from './history-export.js';
import { historyPage } from './history.service.js';

/** Transaction History (spec 2.11) and its Export to Excel, for every logged-in role. */
export const historyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  // The response schema's own serializer writes the reply; the first page's user list, kept
  // serialized (history.service.ts), is spliced in as it is rather than written again.
  const serializeReply = jsonSerializer(HistoryReplySchema);
  app.get(
    '/credits/history',
    { schema: { querystring: HistoryQuerySchema, response: { 200: HistoryReplySchema } } },
    async (req, reply) => {
      const { reply: page, filterableUsersJson: users } = await historyPage(
        ctx,
        caller(req),
        req.query,
      );
      return reply
        .type('application/json; charset=utf-8')
        .serializer((data: HistoryReply) => {
          const body = serializeReply(data);
          return users === undefined ? body : `${body.slice(0, -1)},"allFilterableUsers":${users}}`;
        })
        .send(page);
    },
  );

  app.get(
    '/credits/history/export',
    { schema: { querystring: HistoryQuerySchema } },
    async (req, reply) => {
      const xlsx = await prepareHistoryExport(ctx, caller(req), req.query);
      const out = new PassThrough();
      // Headers are sent by now: a failure can only cut the download short, never answer JSON.
      xlsx.write(out).catch((err: unknown) => {
        if (out.destroyed) return req.log.info('history export: the client left early');
        req.log.error({ err }, 'history export failed');
        out.destroy(err instanceof Error ? err : new Error(String(err)));
      });
      return reply
        .header('content-type', XLSX_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="${xlsx.filename}"`)
        .header('x-content-type-options', 'nosniff')
        .send(out);
    },
  );
};
