import { DEFAULT_COMPANY_NAME, type Branding } from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import { findBranding, findBrandNamesAbove } from './branding.repo.js';

/**
 * The branding a user's layout shows (docs/product.md, Branding): its own, else its nearest
 * creator's; the house name and no logo when nobody above it has any.
 */
export async function brandingFor(
  ctx: AppContext,
  userId: string,
  db: DbOrTx = ctx.db,
): Promise<Branding> {
  const row = await findBranding(db, userId);
  return {
    companyName: row?.company_name ?? DEFAULT_COMPANY_NAME,
    companyLogo: row?.company_logo ?? null,
  };
}

/**
 * The company name that serves each of these users: that of the nearest branded user above it
 * (a logo without a name serves under the house name), else the house name. A Reseller's own
 * brand is what it shows its users; the platform serves the Reseller itself under the brand above.
 */
export async function servingBrandNames(
  db: DbOrTx,
  userIds: readonly string[],
): Promise<Map<string, string>> {
  const names = await findBrandNamesAbove(db, userIds);
  return new Map(userIds.map((id) => [id, names.get(id) ?? DEFAULT_COMPANY_NAME]));
}
