import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddSuppressionBodySchema,
  AddSuppressionReplySchema,
  IdParamsSchema,
  MessageSchema,
  ROLES,
  SUPPRESSION_CHECK_BODY_BYTES,
  SuppressionCheckBodySchema,
  SuppressionCheckReplySchema,
  SuppressionImportReplySchema,
  SuppressionPageSchema,
  SuppressionsExportQuerySchema,
  SuppressionsQuerySchema,
} from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { requestActor } from '../audit/index.js';
import { withMultipart } from '../../plugins/multipart.js';
import { readImportUpload } from './suppressions.input.js';
import * as service from './suppressions.service.js';

/**
 * The suppression list (docs/product.md, Opt-outs). Every role manages its own list; the Admin
 * also lists, filters and removes everyone's entries. Another's entry answers 404.
 */
export const suppressionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const config = { roles: ROLES };

  app.get(
    '/suppressions',
    {
      config,
      schema: { querystring: SuppressionsQuerySchema, response: { 200: SuppressionPageSchema } },
    },
    (req) => service.listSuppressions(ctx.db, caller(req), req.query),
  );

  app.get(
    '/suppressions/export',
    { config, schema: { querystring: SuppressionsExportQuerySchema } },
    async (req, reply) => {
      const chunks = await service.exportSuppressions(ctx.db, caller(req), req.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="suppression-list.csv"')
        .header('x-content-type-options', 'nosniff')
        .send(Readable.from(chunks));
    },
  );

  app.post(
    '/suppressions',
    {
      config,
      schema: { body: AddSuppressionBodySchema, response: { 201: AddSuppressionReplySchema } },
    },
    async (req, reply) => {
      const added = await service.addSuppression(
        ctx.db,
        caller(req),
        requestActor(req),
        req.body.phone,
      );
      return reply.code(201).send(added);
    },
  );

  app.delete(
    '/suppressions/:id',
    { config, schema: { params: IdParamsSchema, response: { 200: MessageSchema } } },
    async (req) => ({
      message: await service.removeSuppression(
        ctx.db,
        caller(req),
        requestActor(req),
        req.params.id,
      ),
    }),
  );

  app.post(
    '/suppressions/check',
    {
      config,
      // A campaign's million numbers as a JSON array (contract limits.ts).
      bodyLimit: SUPPRESSION_CHECK_BODY_BYTES,
      schema: { body: SuppressionCheckBodySchema, response: { 200: SuppressionCheckReplySchema } },
    },
    (req) => service.checkSuppressed(ctx.db, caller(req), req.body),
  );

  await withMultipart(app, (uploads) => {
    uploads.post(
      '/suppressions/import',
      { config, schema: { response: { 200: SuppressionImportReplySchema } } },
      async (req) => {
        const bytes = await readImportUpload(req, ctx.stagingDir);
        return service.importSuppressions(ctx.db, caller(req), requestActor(req), bytes);
      },
    );
  });
};
