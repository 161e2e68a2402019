import pg from 'pg';
import type { BackupTable } from './backup-tables.js';
import type { CopyFieldKind } from './copy-to-xml.js';

/**
 * Own code for issue 13's backup rate target. The SQL side of the backup: the plain `SELECT`
 * each table is copied out by (copy-to-xml.ts turns its COPY lines into sheet rows) and the
 * column types that tell which text needs no care.
 */

/** A column of a PostgreSQL type whose text never needs escaping nor neutralising. */
const SAFE_TYPES = new Set(['uuid', 'boolean']);

/** How copy-to-xml.ts writes each column of `plainSql`. */
export function fieldKinds(
  table: BackupTable,
  pgTypes: ReadonlyMap<string, string>,
): CopyFieldKind[] {
  return table.columns.map(([name, kind]) =>
    kind === 'text' ? (SAFE_TYPES.has(pgTypes.get(name) ?? 'text') ? 'safe' : 'text') : kind,
  );
}

/** Integer types, whose own text is the number as JavaScript prints it (up to 2^53). */
const INTEGER_TYPES = new Set(['smallint', 'integer', 'bigint']);

/**
 * The plain `SELECT` whose COPY text copy-to-xml.ts turns into sheet rows: text as text, integer
 * columns as they are (past 2^53 the digits differ from JavaScript's, the number a reader makes
 * of them does not; and a cast costs PostgreSQL a sixth of a ledger's COPY), other numbers as
 * float8 (printed shortest-exact, as JavaScript prints them), dates as the sheet serials the
 * writer makes of a Date: whole epoch milliseconds (cut toward zero, as a Date does) /
 * 86,400,000 + 25,569, in float8 as JavaScript computes it. date_part is float8 (extract's
 * numeric is far slower); rounded to whole microseconds it is exact again. A uuid goes as it is
 * (its output function writes the same text as `::text`, without a text datum in between: 6% of
 * PostgreSQL's CPU for a ledger COPY); other text columns are cast (a boolean's text is `true`).
 */
export function plainSql(
  table: BackupTable,
  pgTypes: ReadonlyMap<string, string> = new Map(),
): string {
  const list = table.columns.map(([name, kind]) => {
    const col = pg.escapeIdentifier(name);
    if (kind === 'int') return INTEGER_TYPES.has(pgTypes.get(name) ?? '') ? col : `${col}::float8`;
    if (kind === 'date') {
      const ms = `(round(date_part('epoch', ${col}) * 1000000)::int8 / 1000)::float8`;
      return `CASE WHEN isfinite(${col}) THEN ${ms} / 86400000::float8 + 25569::float8 END`;
    }
    // A uuid's own output is its text: a cast would make a text datum first, then copy it.
    if (pgTypes.get(name) === 'uuid') return col;
    return `${col}::text`;
  });
  return `SELECT ${list.join(', ')} FROM ${pg.escapeIdentifier(table.name)}`;
}

/** PostgreSQL type names (information_schema data_type) of the public tables' columns. */
export async function columnTypes(
  client: pg.ClientBase,
): Promise<Map<string, Map<string, string>>> {
  const { rows } = await client.query<{ t: string; c: string; type: string }>(
    `SELECT table_name AS t, column_name AS c, data_type AS type
     FROM information_schema.columns WHERE table_schema = 'public'`,
  );
  const out = new Map<string, Map<string, string>>();
  for (const r of rows) {
    let cols = out.get(r.t);
    if (!cols) out.set(r.t, (cols = new Map()));
    cols.set(r.c, r.type);
  }
  return out;
}
