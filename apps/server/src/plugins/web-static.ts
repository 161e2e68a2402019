import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { server as msg } from '@herald/contract';

/**
 * Serves the built web app on every path outside /api; client-side routes fall back to
 * index.html. Unknown /api paths answer 404 `{ message }`.
 */
export async function registerWebStatic(app: FastifyInstance, webDist: string | undefined) {
  const index = webDist ? path.join(webDist, 'index.html') : undefined;
  const hasWeb = !!index && fs.existsSync(index);
  if (hasWeb && webDist) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || req.url === '/api' || !hasWeb || req.method !== 'GET') {
      return reply.code(404).send({ message: msg.notFound });
    }
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(fs.createReadStream(index!));
  });
}
