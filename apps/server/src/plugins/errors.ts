import type { FastifyError, FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { server as msg } from '@herald/contract';
import { AppError } from '../lib/app-error.js';
import { isMalformedMultipart } from './multipart.js';

/** One error handler, one wire shape: `{ message }`. A 5xx never leaks internals. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError | ZodError, req, reply) => {
    if (err instanceof AppError) {
      // A 503 is load shedding under a storm: one error log per refused request would add to it.
      if (err.status === 503) req.log.debug({ err }, 'request shed');
      else if (err.status >= 500) req.log.error({ err }, 'request failed');
      return reply.code(err.status).headers(err.headers).send({ message: err.message });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      return reply.code(400).send({ message: first?.message || msg.invalidInput });
    }
    if (err instanceof ZodError) {
      return reply.code(400).send({ message: err.issues[0]?.message ?? msg.invalidInput });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return reply.code(500).send({ message: msg.internal });
    }
    // A cut-off or malformed upload is the client's: busboy's errors carry no status of their own.
    if (isMalformedMultipart(err)) {
      return reply.code(400).send({ message: msg.multipartMalformed });
    }
    const status = err.statusCode ?? 500;
    if (status === 413 || err.code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.code(413).send({ message: msg.payloadTooLarge });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, wrong content type, multipart limits.
      return reply.code(status).send({ message: msg.invalidInput });
    }
    req.log.error({ err }, 'request failed');
    return reply.code(500).send({ message: msg.internal });
  });
}
