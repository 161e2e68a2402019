import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * A campaign's recipients per delivery state (issue 14) live in two places (migration 23): the
 * campaign row's counters, and the slots of `campaign_delivery_counts` that the engine's hot
 * statements add to without taking the campaign's row lock. This file is where a writer picks
 * its slot and where readers sum the slots.
 */

/** Slots per campaign: enough that a pool's connections rarely share one. */
export const DELIVERY_COUNT_SLOTS = 16;

/** The writing connection's slot (by its backend pid, so one connection adds to one row). */
export const countSlot = sql<number>`(pg_backend_pid() % ${sql.lit(DELIVERY_COUNT_SLOTS)})::smallint`;

/**
 * The sums of the slots of the campaign `campaigns.id`, one row even when it has none: for a
 * lateral join (`leftJoinLateral(slotSums, (j) => j.onTrue())`) whose columns are then added
 * to the row's counters.
 */
export function slotSums(eb: ExpressionBuilder<Database, 'campaigns'>) {
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
 * A campaign's four counts as the screens read them, its row's plus its slots', named as the
 * row's columns: for a select of `campaigns` that joined `slotSums` (as `k`).
 */
export const summedCounts = [
  sql<number>`campaigns.sent_count + k.sent`.as('sent_count'),
  sql<number>`campaigns.delivered_count + k.delivered`.as('delivered_count'),
  sql<number>`campaigns.read_count + k.read`.as('read_count'),
  sql<number>`campaigns.failed_count + k.failed`.as('failed_count'),
] as const;
