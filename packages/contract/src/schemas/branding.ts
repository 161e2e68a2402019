import { z } from 'zod';
import { optionalText } from './common.js';

export const BrandingSchema = z.object({
  companyName: z.string(),
  /** Path of the logo served by the API, or null. */
  companyLogo: z.string().nullable(),
});
export type Branding = z.infer<typeof BrandingSchema>;

/** The caller's own whitelabel fields: null where it has set none. */
export const WhitelabelSettingsSchema = z.object({
  companyName: z.string().nullable(),
  companyLogo: z.string().nullable(),
});
export type WhitelabelSettings = z.infer<typeof WhitelabelSettingsSchema>;

/**
 * POST /api/whitelabel/settings, the text fields of its multipart form (the logo is the
 * `companyLogo` file part). An empty company name clears it; `removeLogo: 'true'` drops the logo.
 */
export const WhitelabelSettingsBodySchema = z.strictObject({
  companyName: optionalText(120, 'Company name'),
  removeLogo: z.enum(['true', 'false']).optional(),
});
export type WhitelabelSettingsBody = z.input<typeof WhitelabelSettingsBodySchema>;

export const WhitelabelSettingsReplySchema = WhitelabelSettingsSchema.extend({
  message: z.string(),
});
export type WhitelabelSettingsReply = z.infer<typeof WhitelabelSettingsReplySchema>;

/** The logo size the settings screen recommends. */
export const RECOMMENDED_LOGO_SIZE = { width: 200, height: 50 } as const;
