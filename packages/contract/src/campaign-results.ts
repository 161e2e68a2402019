import type { Campaign } from './schemas/campaigns.js';

/**
 * A campaign's results in the one vocabulary every screen and notice uses (docs/product.md,
 * Campaigns, "Results"): **delivered** includes read; once a report exists its figures are the
 * results (failed = total - delivered, as the report's Failed tile), before that the delivery
 * engine's running counters, with **pending** the recipients not yet settled either way.
 * **read** is known only from the engine (an uploaded report counts Read within delivered).
 */
export interface CampaignResults {
  total: number;
  delivered: number;
  read: number | null;
  failed: number;
  pending: number;
  /** True once a report holds the figures. */
  final: boolean;
}

type ResultSource = Pick<Campaign, 'reportCount' | 'reportDelivered' | 'delivery'>;

export function campaignResults(c: ResultSource): CampaignResults | null {
  const read = c.delivery ? c.delivery.read : null;
  if (c.reportCount > 0) {
    return {
      total: c.reportCount,
      delivered: c.reportDelivered,
      read,
      failed: c.reportCount - c.reportDelivered,
      pending: 0,
      final: true,
    };
  }
  const d = c.delivery;
  if (!d) return null;
  return {
    total: d.total,
    delivered: d.delivered,
    read,
    failed: d.failed,
    pending: Math.max(0, d.total - d.delivered - d.failed),
    final: false,
  };
}
