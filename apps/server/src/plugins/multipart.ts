import { statfs } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import { server as msg } from '@herald/contract';
import { AppError } from '../lib/app-error.js';
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
 * /api/session about a third of its throughput). Before any byte of an upload is read, the disk
 * of this instance's staging folder, where every upload is staged whichever storage driver
 * keeps it afterwards, must keep UPLOADS_MIN_FREE_MB free, else 507 (docs/operations.md,
 * Settings).
 */
export async function withMultipart(app: ZodApp, routes: (scope: ZodApp) => void): Promise<void> {
  await app.register(async (scope) => {
    const { stagingDir } = app.ctx;
    const { uploadsMinFreeBytes } = app.ctx.config;
    scope.addHook('onRequest', async () => {
      if (uploadsMinFreeBytes === 0) return;
      const disk = await statfs(stagingDir);
      if (disk.bavail * disk.bsize < uploadsMinFreeBytes) throw new AppError(507, msg.storageLow);
    });
    await scope.register(multipart, {
      limits: { fileSize: 5 * 1024 * 1024, files: 10, fields: 50, parts: 60 },
    });
    routes(scope.withTypeProvider<ZodTypeProvider>());
  });
}

/**
 * busboy's errors for a body that is not valid multipart: cut off before its closing boundary
 * (in a field, a file or the part headers), or a content type without a boundary. busboy gives
 * them no code, so their messages are matched, as @fastify/multipart matches them itself;
 * @fastify/multipart's own for a request closed mid-body has a code.
 */
const MALFORMED_MESSAGES = [
  /^Unexpected end of multipart data$/,
  /terminated early due to unexpected end of multipart data$/,
  /^Multipart: Boundary not found$/,
  /^Boundary required$/,
];

/** True for an upload the client sent broken (a 400), not a failure of the server. */
export function isMalformedMultipart(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if ('code' in err && err.code === 'FST_MP_PREMATURE_CLOSE') return true;
  // Only a bare Error: one with a status or code is someone else's (a database error has a code).
  if ('statusCode' in err || 'code' in err) return false;
  return MALFORMED_MESSAGES.some((re) => re.test(err.message));
}
