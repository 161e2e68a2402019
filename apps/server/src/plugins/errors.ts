import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { apiErrorCodeOf, server as msg, type ApiErrorCode } from '@herald/contract';
import { AppError } from '../lib/app-error.js';
import { isMalformedMultipart } from './multipart.js';

/** What an error answers: its status, message, headers and (for /api/v1) machine code. */
export interface ErrorReply {
  status: number;
  message: string;
  headers: Record<string, string>;
  code: ApiErrorCode;
}

const reply = (status: number, message: string, code = apiErrorCodeOf(status)): ErrorReply => ({
  status,
  message,
  headers: {},
  code,
});

/** The answer to any error a route or hook threw. A 5xx never leaks internals. */
export function errorReply(
  err: FastifyError | AppError | ZodError,
  req: FastifyRequest,
): ErrorReply {
  if (err instanceof AppError) {
    // A 503 is load shedding under a storm: one error log per refused request would add to it.
    if (err.status === 503) req.log.debug({ err }, 'request shed');
    else if (err.status >= 500) req.log.error({ err }, 'request failed');
    return { ...reply(err.status, err.message, err.code), headers: err.headers };
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    return reply(400, err.validation[0]?.message || msg.invalidInput);
  }
  if (err instanceof ZodError) return reply(400, err.issues[0]?.message ?? msg.invalidInput);
  if (isResponseSerializationError(err)) {
    req.log.error({ err }, 'response did not match its schema');
    return reply(500, msg.internal);
  }
  // A cut-off or malformed upload is the client's: busboy's errors carry no status of their own.
  if (isMalformedMultipart(err)) return reply(400, msg.multipartMalformed);
  const status = err.statusCode ?? 500;
  if (status === 413 || err.code === 'FST_REQ_FILE_TOO_LARGE') {
    return reply(413, msg.payloadTooLarge);
  }
  // Fastify's own client errors: bad JSON, wrong content type, multipart limits.
  if (status >= 400 && status < 500) return reply(status, msg.invalidInput);
  req.log.error({ err }, 'request failed');
  return reply(500, msg.internal);
}

/**
 * One error handler, one wire shape: `{ message }`; with `withCode` (the public API's scope,
 * docs/api.md) `{ message, code }`.
 */
export function registerErrorHandler(app: FastifyInstance, withCode = false): void {
  app.setErrorHandler((err: FastifyError | AppError | ZodError, req, res) => {
    const { status, message, headers, code } = errorReply(err, req);
    return res
      .code(status)
      .headers(headers)
      .send(withCode ? { message, code } : { message });
  });
}
