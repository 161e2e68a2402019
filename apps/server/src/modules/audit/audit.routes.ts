import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditLogQuerySchema, AuditLogReplySchema } from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { auditCsvChunks, auditExportFilename, countAuditExport } from './audit-export.js';
import { auditLogPage } from './audit-read.service.js';

/**
 * The Audit Log (docs/audit.md): every signed-in role reads it; the Admin every entry, others
 * the entries whose scope holds them.
 */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get(
    '/audit-log',
    { schema: { querystring: AuditLogQuerySchema, response: { 200: AuditLogReplySchema } } },
    (req) => auditLogPage(ctx.db, caller(req), req.query),
  );

  app.get(
    '/audit-log/export',
    { schema: { querystring: AuditLogQuerySchema } },
    async (req, reply) => {
      const actor = caller(req);
      // Counted before any byte is sent: past the rate, 429 as JSON.
      await countAuditExport(ctx, actor.id);
      const stream = Readable.from(auditCsvChunks(ctx.db, actor, req.query));
      stream.on('error', (err) => req.log.error({ err }, 'audit log export failed'));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${auditExportFilename()}"`)
        .header('x-content-type-options', 'nosniff')
        .send(stream);
    },
  );
};
