import { z } from 'zod';
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
 * Live dashboard figures for the caller's scope (docs/product.md, Decisions). Each role's four
 * cards read four of them; a figure no card of the caller's role shows is null. `avgSuccessRate`
 * (the mean over the User's campaigns with a delivery report of delivered / reported, 0–100) is
 * null while none of its campaigns has a report, and is shown as a dash.
 */
export const DashboardSchema = z.object({
  totalUsers: z.number(),
  activeCampaigns: z.number().nullable(),
  campaignsSent: z.number().nullable(),
  creditsSentMonth: z.number().nullable(),
  creditsUsedMonth: z.number().nullable(),
  creditsRemaining: z.number().nullable(),
  avgSuccessRate: z.number().nullable(),
  openTickets: z.number().nullable(),
  /** The Admin's approval queue: campaigns Submitted or Pending Approval (null for others). */
  awaitingApproval: z.number().nullable(),
});
export type Dashboard = z.infer<typeof DashboardSchema>;
