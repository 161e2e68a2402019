import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../lib/app-error.js';
import { storageKey } from '../lib/storage/file-store.js';

/** Where one kind of public image is stored and how its generated names look. */
export interface PublicImages {
  /** The route, with a `:name` parameter, e.g. `/files/logos/:name`. */
  url: `${string}/:name`;
  /** Only names an upload generated are served: no path can be smuggled in. */
  isName(name: string): boolean;
  /** The images' folder in the FileStore, e.g. `uploads/logos`. */
  folder: string;
  contentType(name: string): string;
}

/**
 * GET of public images (logos, announcement images): public because pages show
 * them by URL in an <img>; served as images with their own type, nosniff and a CSP that runs
 * nothing, streamed from the FileStore so every instance serves what any one stored. One the
 * store no longer has is a 404: the URL names an image, not a row. An image never changes under
 * its name (a new upload gets a new name), so it may be cached for good: the hook runs after the
 * /api hook that sets no-store, and this plugin is encapsulated, so it touches only these routes.
 */
export function publicImagesRoutes(images: PublicImages): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onSend', async (_req, reply) => {
      if (reply.statusCode === 200) {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      }
    });

    app.get(
      images.url,
      { config: { public: true }, schema: { params: z.object({ name: z.string() }) } },
      async (req, reply) => {
        const { name } = req.params;
        if (!images.isName(name)) throw notFound();
        const opened = await app.ctx.files.open(storageKey(images.folder, name));
        if (!opened) throw notFound();
        return reply
          .header('content-type', images.contentType(name))
          .header('content-length', opened.size)
          .header('content-disposition', `inline; filename="${name}"`)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'")
          .send(opened.stream);
      },
    );
  };
}
