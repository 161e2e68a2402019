import { sql, type RawBuilder } from 'kysely';

/**
 * The claim's quiet-hours fragments (dispatch.repo.ts claimRows; docs/delivery.md, Quiet
 * hours). A campaign without quiet hours gets empty fragments: its claim is the statement it
 * always was. A campaign with quiet hours whose zones are all open gets only a check on its own
 * row (the cursor goes back when held numbers are waiting); the recipients' scan is unchanged.
 * Only while some of its zones are closed does the scan filter `zone <> ALL(closed)`.
 *
 * The first pass walks the primary key after `dispatch_cursor`, so the numbers a filtered
 * claim passes over would be behind the cursor for good. So the claim records the first one
 * it passed over (`dispatch_held_from`, the smallest ever while any are held) and the zones
 * closed then (`dispatch_held_zones`); the first claim that finds one of those zones open
 * starts from just before `dispatch_held_from`, once. A filtered walk that reached the end of
 * the campaign sets the cursor to CURSOR_END, past every number, so what is left to claim is
 * only the held numbers, and remainingWork sees nothing to do now.
 */

/** What the claim needs to know of quiet hours: the campaign's zones closed now. */
export interface QuietClaim {
  closed: readonly number[];
}

/** Greater than every number (digits only) in the C collation: the first pass is over. */
export const CURSOR_END = ':';

interface Fragments {
  /** camp's columns after `id, user_id`: the cursor to walk from, and the rewind decision. */
  campCursor: RawBuilder<unknown>;
  /** Appended to both picks' conditions: only open zones. */
  open: RawBuilder<unknown>;
  /** A CTE after fresh_pick: the first held number the walk passed. */
  heldPick: RawBuilder<unknown>;
  /** The campaign row's SET list after the claim. */
  cursorSet: RawBuilder<unknown>;
}

export function quietClaim(
  campaignId: string,
  limit: number,
  quiet: QuietClaim | undefined,
): Fragments {
  if (!quiet) {
    return {
      campCursor: sql`dispatch_cursor`,
      open: sql``,
      heldPick: sql``,
      cursorSet: sql`dispatch_cursor = coalesce((SELECT max(phone) FROM fresh), c.dispatch_cursor)`,
    };
  }
  const closed = sql`${[...quiet.closed]}::smallint[]`;
  // Held numbers of a zone open now: walk again from just before the first of them.
  const rewind = sql`(dispatch_held_zones IS NOT NULL AND NOT (dispatch_held_zones <@ ${closed}))`;
  const campCursor = sql`CASE WHEN ${rewind} THEN left(dispatch_held_from, -1)
      ELSE dispatch_cursor END AS dispatch_cursor, ${rewind} AS rewind`;
  const cleared = sql`dispatch_quiet = false`;
  if (quiet.closed.length === 0) {
    return {
      campCursor,
      open: sql``,
      heldPick: sql``,
      cursorSet: sql`dispatch_cursor = coalesce((SELECT max(phone) FROM fresh), camp.dispatch_cursor),
          dispatch_held_from = CASE WHEN camp.rewind THEN NULL ELSE c.dispatch_held_from END,
          dispatch_held_zones = CASE WHEN camp.rewind THEN NULL ELSE c.dispatch_held_zones END,
          ${cleared}`,
    };
  }
  const walkedToEnd = sql`(SELECT count(*) FROM fresh_pick) < ${limit}::int`;
  const heldFrom = sql`CASE WHEN camp.rewind THEN (SELECT phone FROM held_pick)
      ELSE least(c.dispatch_held_from, (SELECT phone FROM held_pick)) END`;
  return {
    campCursor,
    open: sql` AND zone <> ALL(${closed})`,
    // Within the part of the key the fresh pick walked (to its last row, or to the end).
    heldPick: sql`, held_pick AS MATERIALIZED (
      SELECT min(phone) AS phone FROM (
        SELECT phone FROM campaign_recipients
        WHERE campaign_id = ${campaignId}::uuid AND state IS NULL
          AND phone > coalesce((SELECT dispatch_cursor FROM camp), '')
          AND phone <= CASE WHEN ${walkedToEnd} THEN ${CURSOR_END}
                            ELSE (SELECT max(phone) FROM fresh_pick) END
          AND zone = ANY(${closed}) AND EXISTS (SELECT 1 FROM camp)
        ORDER BY phone LIMIT 1
      ) h
    )`,
    cursorSet: sql`dispatch_cursor = CASE
            WHEN ${walkedToEnd} AND (SELECT count(*) FROM fresh) = (SELECT count(*) FROM fresh_pick)
            THEN ${CURSOR_END}
            ELSE coalesce((SELECT max(phone) FROM fresh), camp.dispatch_cursor) END,
          dispatch_held_from = ${heldFrom},
          dispatch_held_zones = CASE WHEN ${heldFrom} IS NULL THEN NULL
            ELSE ARRAY(SELECT DISTINCT z FROM unnest(${closed} || CASE WHEN camp.rewind
              THEN '{}'::smallint[] ELSE coalesce(c.dispatch_held_zones, '{}') END) z ORDER BY z)
            END,
          ${cleared}`,
  };
}
