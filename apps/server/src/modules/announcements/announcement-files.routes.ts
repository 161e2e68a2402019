import fs from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/app-error.js';
import { imageContentType, imagePath, isImageName } from './announcement-files.js';

/**
 * GET /api/files/announcements/:name: announcement images, public like logos (decisions.md 7)
 * because the dialog shows them by URL in an <img>. Only names the upload generated are served,
 * as images with their own type, nosniff and a CSP that runs nothing.
 */
export const announcementFilesRoutes: FastifyPluginAsyncZod = async (app) => {
  // An image never changes under its name (a new upload gets a new name), so it may be cached.
  app.addHook('onSend', async (_req, reply) => {
    if (reply.statusCode === 200) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    }
  });

  app.get(
    '/files/announcements/:name',
    { config: { public: true }, schema: { params: z.object({ name: z.string() }) } },
    async (req, reply) => {
      const { name } = req.params;
      if (!isImageName(name)) throw notFound();
      const file = await fs.open(imagePath(app.ctx.uploadsDir, name), 'r').catch(() => null);
      if (!file) throw notFound();
      try {
        const { size } = await file.stat();
        return await reply
          .header('content-type', imageContentType(name))
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
