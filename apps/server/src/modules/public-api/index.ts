import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { server as msg, PUBLIC_API_PREFIX } from '@herald/contract';
import { registerErrorHandler } from '../../plugins/errors.js';
import { DOCS_CSS, renderDocsPage, type OpenApiDocument } from './docs-page.js';
import { registerOpenApi } from './openapi.js';
import { publicApiRoutes } from './public-api.routes.js';

/** Served to the reference page only: nothing but its own stylesheet may load. */
const DOCS_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; " +
  "form-action 'none'; frame-ancestors 'none'";

/**
 * The public API (docs/api.md, The v1 API), registered in the /api scope: the routes under
 * /api/v1 with their own error shape `{ message, code }` and OpenAPI document at
 * /api/v1/openapi.json, and the readable reference at /api/docs.
 */
export const publicApi: FastifyPluginAsyncZod = async (api) => {
  let document: () => OpenApiDocument = () => {
    throw new Error('the v1 routes are not registered');
  };
  await api.register(
    async (v1) => {
      registerErrorHandler(v1, true);
      v1.setNotFoundHandler((_req, reply) =>
        reply.code(404).send({ message: msg.notFound, code: 'not_found' }),
      );
      await registerOpenApi(v1);
      await v1.register(publicApiRoutes);
      document = () => v1.swagger() as unknown as OpenApiDocument;
      v1.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, () =>
        document(),
      );
    },
    { prefix: '/v1' },
  );

  // Rendered once: the routes, and so the document, are fixed once the app is ready.
  let page: string | undefined;
  api.get('/docs', { config: { public: true } }, (_req, reply) => {
    page ??= renderDocsPage(document(), '/api/docs/docs.css', `${PUBLIC_API_PREFIX}/openapi.json`);
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', DOCS_CSP)
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .send(page);
  });
  api.get('/docs/docs.css', { config: { public: true } }, (_req, reply) =>
    reply.type('text/css; charset=utf-8').send(DOCS_CSS),
  );
};
