/**
 * Delivery restart after a crash (docs/performance.md, delivery crash): a claimed recipient records
 * the key of the instance that claimed it (dispatch-presence.ts). The instance holds an advisory
 * lock of that key for as long as it lives, so the rows of a key nobody holds any more are taken
 * again at once, instead of after their lease. Nullable, no default: adding it rewrites nothing,
 * and rows claimed before it keep waiting out their lease as they did. Not indexed: a status event
 * still changes no indexed column, and the rows in flight are found through migration 17's index.
 */
export const sql = /* sql */ `
ALTER TABLE campaign_recipients ADD COLUMN claimed_by integer;
`;
