import { DEFAULT_COMPANY_NAME, type Branding } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { findBranding } from './branding.repo.js';

/**
 * The branding a user's layout shows (docs/product.md, Branding): its own, else its nearest
 * creator's; the house name and no logo when nobody above it has any.
 */
export async function brandingFor(ctx: AppContext, userId: string): Promise<Branding> {
  const row = await findBranding(ctx.db, userId);
  return {
    companyName: row?.company_name ?? DEFAULT_COMPANY_NAME,
    companyLogo: row?.company_logo ?? null,
  };
}
