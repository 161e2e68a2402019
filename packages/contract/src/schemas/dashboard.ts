import { z } from 'zod';
import { CREDIT_TYPES } from '../credit-types.js';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '../statuses.js';

/**
 * A campaign is active from Submitted through Processing (the lifecycle's first four statuses):
 * the Admin's 'Active Campaigns' and the resellers' 'My Active Campaigns' count these.
 */
export const ACTIVE_CAMPAIGN_STATUSES: readonly CampaignStatus[] = CAMPAIGN_STATUSES.slice(
  0,
  CAMPAIGN_STATUSES.indexOf('Processing') + 1,
);

/** A User's 'Campaigns Sent': its campaigns that went out (Completed or Report Generated). */
export const SENT_CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['Completed', 'Report Generated'];

/**
 * One credit type's figure on a dashboard card. Credits of different types cannot be swapped, so
 * a credit figure is never summed over types: a card lists each type's (docs/product.md,
 * Dashboards and analytics).
 */
export const CreditTypeCountSchema = z.object({
  creditType: z.enum(CREDIT_TYPES),
  count: z.number(),
});
export type CreditTypeCount = z.infer<typeof CreditTypeCountSchema>;
/** Every credit type, in the contract's order (CREDIT_TYPES), zeros included. */
export const CreditTypeCountsSchema = z.array(CreditTypeCountSchema);

/**
 * Live dashboard figures for the caller's scope (docs/product.md, Dashboards and analytics).
 * Each role's cards read some of them; a figure no card of the caller's role shows is null.
 * - `creditsSentMonth` (Admin): credits minted this calendar month (UTC), per type.
 * - `creditsUsedMonth` (Reseller, Sub-Reseller): credits spent on campaigns this month by the
 *   caller's scope (itself and its subtree), debits net of refunds, per type.
 * - `creditsRemaining` (Reseller, Sub-Reseller, User): the caller's own balance per type.
 * - `avgSuccessRate` (the mean over the User's campaigns with a delivery report of delivered /
 *   reported, 0–100) is null while none of its campaigns has a report, and is shown as a dash.
 */
export const DashboardSchema = z.object({
  totalUsers: z.number(),
  activeCampaigns: z.number().nullable(),
  campaignsSent: z.number().nullable(),
  creditsSentMonth: CreditTypeCountsSchema.nullable(),
  creditsUsedMonth: CreditTypeCountsSchema.nullable(),
  creditsRemaining: CreditTypeCountsSchema.nullable(),
  avgSuccessRate: z.number().nullable(),
  openTickets: z.number().nullable(),
  /** The Admin's approval queue: campaigns Submitted or Pending Approval (null for others). */
  awaitingApproval: z.number().nullable(),
});
export type Dashboard = z.infer<typeof DashboardSchema>;
