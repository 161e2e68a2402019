import { z } from 'zod';

/** The Advanced Analytics date ranges: the last 7, 30 or 90 days (UTC), or all time. */
export const ANALYTICS_RANGES = ['7', '30', '90', 'all'] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];
export const DEFAULT_ANALYTICS_RANGE: AnalyticsRange = '30';

/** The query of every /api/analytics route: `?range=7|30|90|all` (default 30). */
export const AnalyticsQuerySchema = z.object({
  range: z.enum(ANALYTICS_RANGES).default(DEFAULT_ANALYTICS_RANGE),
});
export type AnalyticsQuery = z.infer<typeof AnalyticsQuerySchema>;

/**
 * GET /api/analytics, the analytics summary (docs/product.md, Dashboards and analytics).
 * `users.total`: the users of the caller's scope, the caller excluded (a head count, whatever
 * the range);
 * `credits.added`: Σ count of the Added ledger entries on accounts of the scope (the caller's own
 * included) in the range; `credits.used`: credits spent on campaigns by the scope's accounts,
 * debits net of refunds; `credits.distributed`: credits moved down the tree onto the scope's
 * accounts below the caller (mints and transfers given, net of burns and credits taken back);
 * `campaigns.total`: the scope's campaigns created in the range.
 */
export const AnalyticsSummarySchema = z.object({
  users: z.object({ total: z.number() }),
  credits: z.object({ added: z.number(), used: z.number(), distributed: z.number() }),
  campaigns: z.object({ total: z.number() }),
});
export type AnalyticsSummary = z.infer<typeof AnalyticsSummarySchema>;

/** GET /api/analytics/credits-trend: one row per UTC day with entries, oldest first. */
export const CreditsTrendRowSchema = z.object({
  date: z.string(),
  Added: z.number(),
  Removed: z.number(),
});
export const CreditsTrendSchema = z.array(CreditsTrendRowSchema);
export type CreditsTrendRow = z.infer<typeof CreditsTrendRowSchema>;

/**
 * GET /api/analytics/credit-types: credits spent on campaigns (net of refunds) per credit type in
 * the range (the 'Credit Types Used' pie); GET /api/analytics/campaign-types: campaigns per
 * credit type in the range. Largest first; types with none are left out.
 */
export const NameValueRowSchema = z.object({ name: z.string(), value: z.number() });
export const NameValueRowsSchema = z.array(NameValueRowSchema);
export type NameValueRow = z.infer<typeof NameValueRowSchema>;

/** The 'Top Users by Credit Usage' chart holds this many users at most. */
export const TOP_USERS_LIMIT = 10;

/**
 * GET /api/analytics/top-users: the scope's users by credits spent on campaigns (net of refunds)
 * in the range, most first; transfers to other users are not spending.
 */
export const TopUserRowSchema = z.object({ name: z.string(), used: z.number() });
export const TopUsersSchema = z.array(TopUserRowSchema);
export type TopUserRow = z.infer<typeof TopUserRowSchema>;
