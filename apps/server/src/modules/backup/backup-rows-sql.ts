import pg from 'pg';
import { EXCEL_EPOCH_DAYS, MS_PER_DAY } from '../../lib/xlsx-writer.js';
import type { BackupTable } from './backup-tables.js';
import type { CopyFieldKind } from './copy-to-xml.js';

/**
 * For the backup's rate (docs/performance.md, backup rate). The plain `SELECT` each table is
 * copied out by, in binary (copy-to-xml.ts turns its tuples into sheet rows), and how each of its
 * fields is sent, from the column's type (backup.repo.ts runs it).
 */

/** Integer types: sent as they are (int2, int4, int8), written as their digits. */
const INTEGER_TYPES = new Set(['smallint', 'integer', 'bigint']);

/** A COPY's SELECT and the kind of each field it sends. */
export interface CopyPlan {
  sql: string;
  kinds: CopyFieldKind[];
}

/**
 * The plain `SELECT` whose binary COPY copy-to-xml.ts turns into sheet rows, and its fields'
 * kinds. A uuid (16 bytes), an integer and a timestamptz (microseconds since 2000) go as they
 * are: far cheaper for PostgreSQL than their text, and cheap to write (binary-fields.ts). Turning
 * a timestamptz into its serial in SQL cost PostgreSQL a third of a ledger's COPY; the worker
 * does it in a few operations. Other numbers go as the text of their float8 (printed
 * shortest-exact, as JavaScript prints them), another date type as the text of the serial the
 * writer makes of a Date: whole epoch milliseconds (cut toward zero, as a Date does) /
 * 86,400,000 + 25,569, in float8 as JavaScript computes it. date_part is float8 (extract's
 * numeric is far slower); rounded to whole microseconds it is exact again. Any other column goes
 * as its text (a boolean's is `true`, written as it is).
 */
export function copyPlan(table: BackupTable, pgTypes: ReadonlyMap<string, string>): CopyPlan {
  const kinds: CopyFieldKind[] = [];
  const list = table.columns.map(([name, kind]) => {
    const col = pg.escapeIdentifier(name);
    const type = pgTypes.get(name) ?? 'text';
    if (kind === 'int') {
      if (INTEGER_TYPES.has(type)) {
        kinds.push('int');
        return col;
      }
      kinds.push('number');
      return `${col}::float8::text`;
    }
    if (kind === 'date') {
      if (type === 'timestamp with time zone') {
        kinds.push('date');
        return col;
      }
      kinds.push('serial');
      const ms = `(round(date_part('epoch', ${col}) * 1000000)::int8 / 1000)::float8`;
      const serial = `${ms} / ${MS_PER_DAY}::float8 + ${EXCEL_EPOCH_DAYS}::float8`;
      return `(CASE WHEN isfinite(${col}) THEN ${serial} END)::text`;
    }
    if (type === 'uuid') {
      kinds.push('uuid');
      return col;
    }
    kinds.push(type === 'boolean' ? 'safe' : 'text');
    return `${col}::text`;
  });
  return { sql: `SELECT ${list.join(', ')} FROM ${pg.escapeIdentifier(table.name)}`, kinds };
}

/** The binary COPY of a plan's SELECT. */
export function copySql(plan: CopyPlan): string {
  return `COPY (${plan.sql}) TO STDOUT (FORMAT binary)`;
}
