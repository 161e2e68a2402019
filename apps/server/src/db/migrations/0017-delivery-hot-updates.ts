/**
 * Delivery throughput (docs/performance.md, delivery at scale): a recipient's state changes
 * (claimed, sent, delivered, read) become HOT updates where they can. Migration 16's partial
 * indexes named `state` in their predicates (and indexed `state_at`), so every state change wrote a
 * new entry into the primary key and those indexes: four index inserts per message, and the vacuum
 * to match.
 *
 * Now one partial index on `next_attempt_at`, which means "the dispatcher must look at this row
 * by then": a queued row's retry time, or a sending row's lease end (set by the claim; a row
 * still sending then belongs to a dead instance). Sent, delivered, read and failed rows have
 * none, so the status events (delivered, read) change no indexed column and stay on their
 * page; only the claim and the send's answer touch the index. New pages are filled to 70% so
 * the new row versions fit beside the old ones (existing pages keep their layout).
 */
export const sql = /* sql */ `
UPDATE campaign_recipients
   SET next_attempt_at = coalesce(state_at, now()) + interval '60 seconds'
 WHERE state = 'sending';
DROP INDEX campaign_recipients_retry_idx;
DROP INDEX campaign_recipients_sending_idx;
CREATE INDEX campaign_recipients_due_idx ON campaign_recipients (campaign_id, next_attempt_at)
  WHERE next_attempt_at IS NOT NULL;
ALTER TABLE campaign_recipients SET (fillfactor = 70);
`;
