import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BrandingSchema, DEFAULT_COMPANY_NAME } from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { findBranding } from '../users/users.repo.js';

/** GET /api/whitelabel/my-branding: the branding the caller's layout shows (decisions.md 6). */
export const brandingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/whitelabel/my-branding',
    { schema: { response: { 200: BrandingSchema } } },
    async (req) => {
      const row = await findBranding(app.ctx.db, caller(req).id);
      return {
        companyName: row?.company_name ?? DEFAULT_COMPANY_NAME,
        companyLogo: row?.company_logo ?? null,
      };
    },
  );
};
