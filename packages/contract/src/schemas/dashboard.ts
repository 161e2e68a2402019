import { z } from 'zod';

/**
 * Live dashboard figures for the caller's scope. A figure whose data does not exist in this
 * version (no campaigns, credits or tickets module yet) is null and shown as a dash.
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
});
export type Dashboard = z.infer<typeof DashboardSchema>;
