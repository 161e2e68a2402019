import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PassThrough } from 'node:stream';
import { HistoryQuerySchema, HistoryReplySchema, type HistoryReply } from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { jsonSerializer } from '../../plugins/serializer.js';
import { prepareHistoryExport, XLSX_CONTENT_TYPE } from './history-export.js';
import { countExport, takeExportSlot } from './history-export-limits.js';
import { historyPage } from './history.service.js';

/** Transaction History and its Export to Excel, for every logged-in role. */
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
      const actor = caller(req);
      // Checked before any byte is sent: one export at a time (429 while one runs, without
      // counting), then the per-user rate (429 past it). The slot is given back when the
      // export ends, fails or the client leaves.
      const releaseSlot = await takeExportSlot(ctx, actor.id);
      const release = () =>
        releaseSlot().catch((err: unknown) => req.log.error({ err }, 'history export: release'));
      let streaming = false;
      try {
        await countExport(ctx, actor.id);
        const xlsx = await prepareHistoryExport(ctx, actor, req.query);
        const out = new PassThrough();
        // Closed at the end, on a failure, or when the client left (the reply destroys it).
        out.once('close', () => void release());
        // Headers are sent by now: a failure can only cut the download short, never answer JSON.
        // The slot is free once every row is read, before the last bytes reach the client: a
        // next export right after this one finds it free.
        xlsx
          .write(out, release)
          .catch((err: unknown) => {
            if (out.destroyed) return req.log.info('history export: the client left early');
            req.log.error({ err }, 'history export failed');
            out.destroy(err instanceof Error ? err : new Error(String(err)));
          })
          .finally(() => void release());
        streaming = true;
        return reply
          .header('content-type', XLSX_CONTENT_TYPE)
          .header('content-disposition', `attachment; filename="${xlsx.filename}"`)
          .header('x-content-type-options', 'nosniff')
          .send(out);
      } finally {
        if (!streaming) await release();
      }
    },
  );
};
