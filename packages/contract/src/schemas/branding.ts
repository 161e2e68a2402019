import { z } from 'zod';

export const BrandingSchema = z.object({
  companyName: z.string(),
  /** Path of the logo served by the API, or null. */
  companyLogo: z.string().nullable(),
});
export type Branding = z.infer<typeof BrandingSchema>;
