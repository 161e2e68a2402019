import type { Writable } from 'node:stream';
import pg from 'pg';
import { XLSX_MAX_ROWS, XlsxWriter, type XlsxCell } from '../../lib/xlsx-writer.js';
import { BACKUP_TABLES, type BackupColumnKind, type BackupTable } from './backup-tables.js';

/**
 * Writes a full backup: one sheet per table of the allow-list (backup-tables.ts), a header row
 * of column names, then every row. A table past a sheet's 1,048,576 rows goes on in the next
 * sheet (`credit_transactions (2)`), which repeats the header.
 *
 * Every table is read in one REPEATABLE READ, READ ONLY transaction, so the workbook is one
 * consistent snapshot (a ledger entry never points at a user the users sheet lacks). Rows come
 * through a cursor in batches of FETCH_ROWS and go out through the streaming XLSX writer, which
 * waits on the output's backpressure: a table of millions of rows needs the memory of a batch.
 * A cursor is the keyset walk without the seek per batch (one sequential scan per table).
 */

export const FETCH_ROWS = 4000;

export interface BackupProgressSink {
  /** Rows written so far, after each batch. */
  (rows: number): void;
}

export interface BackupResult {
  /** Rows per table (the sheets of one table summed). */
  rows: Record<string, number>;
  total: number;
}

function selectList(table: BackupTable): string {
  return table.columns
    .map(([name, kind]) => {
      const col = pg.escapeIdentifier(name);
      // Dates as epoch milliseconds: a number parses far faster than a timestamp's text.
      if (kind === 'date') return `(extract(epoch from ${col}) * 1000)::float8`;
      return kind === 'int' ? `${col}::float8` : `${col}::text`;
    })
    .join(', ');
}

function toCell(value: unknown, kind: BackupColumnKind): XlsxCell {
  if (value === null || value === undefined) return null;
  if (kind === 'date') return typeof value === 'number' ? new Date(value) : String(value);
  if (kind === 'int') return typeof value === 'number' ? value : Number(value);
  return String(value);
}

/** Streams the backup workbook into `out`; resolves once `out` took every byte. */
export async function writeBackup(
  pool: pg.Pool,
  out: Writable,
  onProgress: BackupProgressSink = () => {},
): Promise<BackupResult> {
  const xlsx = new XlsxWriter(out);
  const rows: Record<string, number> = {};
  let total = 0;
  const client = await pool.connect();
  let failed = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    for (const table of BACKUP_TABLES) {
      const header = table.columns.map(([name]) => name);
      const kinds = table.columns.map(([, kind]) => kind);
      const startSheet = async () => {
        await xlsx.addSheet(table.name, { freezeHeader: true });
        await xlsx.addRow(header, 'bold');
      };
      await startSheet();
      rows[table.name] = 0;
      await client.query(
        `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT ${selectList(table)} FROM ${pg.escapeIdentifier(table.name)}`,
      );
      const fetchBatch = () => {
        const p = client.query<unknown[]>({
          text: `FETCH ${FETCH_ROWS} FROM backup_rows`,
          rowMode: 'array',
        });
        // Awaited below; a failure while a batch is being written must not go unhandled.
        p.catch(() => {});
        return p;
      };
      // The next batch is asked for before this one is written: PostgreSQL reads while
      // the rows are turned into XML.
      let next = fetchBatch();
      for (;;) {
        const batch = await next;
        const more = batch.rows.length === FETCH_ROWS;
        if (more) next = fetchBatch();
        for (const row of batch.rows) {
          if (xlsx.rowsInSheet >= XLSX_MAX_ROWS) await startSheet();
          const cells: XlsxCell[] = new Array<XlsxCell>(row.length);
          for (let c = 0; c < row.length; c++) cells[c] = toCell(row[c], kinds[c]!);
          await xlsx.addRow(cells);
        }
        rows[table.name]! += batch.rows.length;
        total += batch.rows.length;
        onProgress(total);
        if (!more) break;
      }
      await client.query('CLOSE backup_rows');
    }
    await client.query('COMMIT');
    await xlsx.finish();
    return { rows, total };
  } catch (err) {
    failed = true;
    if (!out.destroyed) out.destroy(err instanceof Error ? err : new Error(String(err)));
    throw err;
  } finally {
    if (failed) await client.query('ROLLBACK').catch(() => {});
    // A client left mid-transaction is broken: give it back destroyed rather than reused.
    client.release(failed);
  }
}

/** Rows expected per table: pg_class estimates for big tables, exact counts below SMALL_TABLE. */
export const SMALL_TABLE = 100_000;

export async function tableRowCounts(
  pool: pg.Pool,
  tables: readonly string[],
): Promise<{ name: string; count: number }[]> {
  const { rows } = await pool.query<{ name: string; estimate: number }>(
    `SELECT c.relname AS name,
       greatest(CASE WHEN c.reltuples >= 0 THEN c.reltuples
                     ELSE coalesce(s.n_live_tup, 0) END, 0)::float8 AS estimate
     FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
     LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
     WHERE c.relkind IN ('r', 'p') AND c.relname = ANY ($1::text[])`,
    [tables],
  );
  const estimates = new Map(rows.map((r) => [r.name, Math.round(r.estimate)]));
  const out: { name: string; count: number }[] = [];
  for (const name of tables) {
    const estimate = estimates.get(name);
    if (estimate === undefined) continue;
    if (estimate >= SMALL_TABLE) {
      out.push({ name, count: estimate });
      continue;
    }
    const exact = await pool.query<{ n: number }>(
      `SELECT count(*)::float8 AS n FROM ${pg.escapeIdentifier(name)}`,
    );
    out.push({ name, count: exact.rows[0]?.n ?? 0 });
  }
  return out;
}

export const BACKUP_TABLE_NAMES = BACKUP_TABLES.map((t) => t.name);
