import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BrandingSchema,
  MANAGER_ROLES,
  server as msg,
  WhitelabelSettingsReplySchema,
  WhitelabelSettingsSchema,
} from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { withMultipart } from '../../plugins/multipart.js';
import { requestActor } from '../audit/index.js';
import { brandingFor } from './branding.service.js';
import { readLogoForm } from './logo-form.input.js';
import { getOwnSettings, updateOwnSettings } from './settings.service.js';

/**
 * GET /api/whitelabel/my-branding: the branding the caller's layout shows (docs/product.md, Branding).
 * GET and POST /api/whitelabel/settings: the caller's own company name and logo (Whitelabel Settings), for
 * the roles that own a subtree of users (Admin, Reseller, Sub-Reseller); a User gets 403. An
 * Admin's branding is the house branding of every user with no nearer branded creator.
 */
export const brandingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/whitelabel/my-branding', { schema: { response: { 200: BrandingSchema } } }, (req) =>
    brandingFor(app.ctx, caller(req).id),
  );

  app.get(
    '/whitelabel/settings',
    { config: { roles: MANAGER_ROLES }, schema: { response: { 200: WhitelabelSettingsSchema } } },
    (req) => getOwnSettings(app.ctx, caller(req).id),
  );

  // multipart/form-data (companyName, an optional companyLogo file, removeLogo) or JSON without
  // a logo; read by the same reader as Edit User and validated by the service.
  await withMultipart(app, (uploads) => {
    uploads.post(
      '/whitelabel/settings',
      {
        config: { roles: MANAGER_ROLES },
        schema: { response: { 200: WhitelabelSettingsReplySchema } },
      },
      async (req) => {
        const input = await readLogoForm(req);
        const saved = await updateOwnSettings(
          app.ctx,
          caller(req).id,
          input,
          req.log,
          requestActor(req),
        );
        return { message: msg.whitelabelUpdated, ...saved };
      },
    );
  });
};
