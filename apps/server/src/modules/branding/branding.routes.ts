import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BrandingSchema } from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { brandingFor } from './branding.service.js';

/** GET /api/whitelabel/my-branding: the branding the caller's layout shows (decisions.md 6). */
export const brandingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/whitelabel/my-branding', { schema: { response: { 200: BrandingSchema } } }, (req) =>
    brandingFor(app.ctx, caller(req).id),
  );
};
