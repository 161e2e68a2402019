import { sql } from 'kysely';

/**
 * A campaign's recipients per delivery state live in two places: the campaign row's counters,
 * and its counter shards, the rows of `campaign_delivery_counts` that the engine's hot
 * statements (dispatch.repo.ts writeResults, status.repo.ts applyStatusBatch) add to without
 * taking the campaign's row lock. This file is where a writer picks its shard; the readers'
 * sums are the campaigns module's (campaigns/delivery-counts.sql.ts), and the settlement folds
 * the shards back into the row (settle/finalize.repo.ts markSettled). See docs/delivery.md,
 * Counter shards.
 *
 * The table's column is still named `slot` (renaming it would take a migration for nothing):
 * it holds the shard number.
 */

/** Counter shards per campaign: enough that a pool's connections rarely share one. */
export const COUNTER_SHARDS = 16;

/** The writing connection's shard (by its backend pid, so one connection adds to one row). */
export const counterShard = sql<number>`(pg_backend_pid() % ${sql.lit(COUNTER_SHARDS)})::smallint`;
