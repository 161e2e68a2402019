import { sql, type RawBuilder } from 'kysely';

/**
 * The suppression list as a fragment other statements compose (docs/delivery.md, Opt-outs): the
 * numbers among `phones` (a text[] expression) that `owner` (a uuid expression) suppressed. One
 * probe of the (owner_id, phone) unique index per number, so a dispatch claim pays for its own
 * batch only, whatever the length of the list.
 */
export function suppressedAmong(owner: RawBuilder<unknown>, phones: RawBuilder<unknown>) {
  return sql<{ phone: string }>`SELECT s.phone FROM suppressions s
    WHERE s.owner_id = ${owner} AND s.phone = ANY(${phones})`;
}
