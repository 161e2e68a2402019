import type { Compilable, RawBuilder } from 'kysely';
import { compiler } from './prepared.js';

/**
 * Hot statements as named prepared statements (issue 3): a query wrapped in hot() is sent
 * with a name, so each connection parses and plans its text once and afterwards only binds
 * and executes it, instead of the unnamed Parse of every Kysely query. Only statements whose
 * text is fixed belong here (the same SQL whatever the values), on paths hit many times a
 * second; the rest stay unnamed, so PostgreSQL plans each with its values.
 */

/** More distinct texts than this is a bug (a text that varies): stop naming new ones. */
const MAX_HOT = 64;
const names = new Map<string, string>();

/** Marks `query` hot and returns it: `await hot(sql\`...\`).execute(tx)`. */
export function hot<T extends Compilable | RawBuilder<unknown>>(query: T): T {
  const { sql } = isRawBuilder(query) ? query.compile(compiler) : query.compile();
  if (!names.has(sql) && names.size < MAX_HOT) names.set(sql, `herald_hot_${names.size + 1}`);
  return query;
}

function isRawBuilder(q: Compilable | RawBuilder<unknown>): q is RawBuilder<unknown> {
  return 'isRawBuilder' in q && q.isRawBuilder === true;
}

/** The statement name of a hot text; undefined for every other query. */
export function hotName(text: string): string | undefined {
  return names.get(text);
}
