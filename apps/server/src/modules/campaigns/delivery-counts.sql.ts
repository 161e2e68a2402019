import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * A campaign's four delivery counts as the screens read them: the row's counters plus the sums
 * of its counter shards (`campaign_delivery_counts`), which the delivery engine adds to without
 * locking the campaign row and folds back into it when it settles the campaign (docs/delivery.md,
 * Counter shards). Fragments for the repos that read campaigns.
 */

/**
 * The sums of the shards of the campaign `campaigns.id`, one row even when it has none: for a
 * lateral join (`leftJoinLateral(shardSums, (j) => j.onTrue())`) whose columns are then added
 * to the row's counters.
 */
export function shardSums(eb: ExpressionBuilder<Database, 'campaigns'>) {
  return eb
    .selectFrom('campaign_delivery_counts as k')
    .whereRef('k.campaign_id', '=', 'campaigns.id')
    .select([
      sql<number>`coalesce(sum(k.sent), 0)::int`.as('sent'),
      sql<number>`coalesce(sum(k.delivered), 0)::int`.as('delivered'),
      sql<number>`coalesce(sum(k.read), 0)::int`.as('read'),
      sql<number>`coalesce(sum(k.failed), 0)::int`.as('failed'),
    ])
    .as('k');
}

/**
 * A campaign's four counts, its row's plus its shards', named as the row's columns: for a select
 * of `campaigns` that joined `shardSums` (as `k`).
 */
export const summedCounts = [
  sql<number>`campaigns.sent_count + k.sent`.as('sent_count'),
  sql<number>`campaigns.delivered_count + k.delivered`.as('delivered_count'),
  sql<number>`campaigns.read_count + k.read`.as('read_count'),
  sql<number>`campaigns.failed_count + k.failed`.as('failed_count'),
] as const;
