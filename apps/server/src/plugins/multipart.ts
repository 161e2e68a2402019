import multipart from '@fastify/multipart';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * Registers routes that take multipart uploads in their own scope. @fastify/multipart adds two
 * async hooks and a 'close' listener to every request of the scope it is registered in; kept
 * to upload routes, the other routes do not pay for it (registered globally it cost
 * /api/session about a third of its throughput).
 */
export async function withMultipart(app: ZodApp, routes: (scope: ZodApp) => void): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: 5 * 1024 * 1024, files: 10, fields: 50, parts: 60 },
    });
    routes(scope.withTypeProvider<ZodTypeProvider>());
  });
}
