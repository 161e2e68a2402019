import fs from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/app-error.js';
import { isLogoName, logoContentType, logoPath } from './logo-files.js';

function isMissing(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === 'ENOENT';
}

/**
 * GET /api/files/logos/:name: whitelabel logos, public because the layout shows them by URL in
 * an <img>. Only names the upload generated are served (no path can be smuggled in), as images
 * with their own type and nosniff.
 */
export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  // Runs after the /api hook that sets no-store (this plugin is encapsulated, so it touches only
  // these routes): a logo never changes under its name (a new upload gets a new name), so it
  // may be cached for good.
  app.addHook('onSend', async (_req, reply) => {
    if (reply.statusCode === 200) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    }
  });

  app.get(
    '/files/logos/:name',
    { config: { public: true }, schema: { params: z.object({ name: z.string() }) } },
    async (req, reply) => {
      const { name } = req.params;
      if (!isLogoName(name)) throw notFound();
      let file: fs.FileHandle;
      try {
        file = await fs.open(logoPath(app.ctx.uploadsDir, name), 'r');
      } catch (err) {
        if (isMissing(err)) throw notFound();
        throw err;
      }
      try {
        const { size } = await file.stat();
        return reply
          .header('content-type', logoContentType(name))
          .header('content-length', size)
          .header('content-disposition', `inline; filename="${name}"`)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'")
          .send(file.createReadStream());
      } catch (err) {
        await file.close();
        throw err;
      }
    },
  );
};
