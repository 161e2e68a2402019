import { WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import pg from 'pg';
import zlib from 'node:zlib';
import { columnTypes, copyPlan, copySql } from './backup-rows-sql.js';
import { pack, PackedZip } from './backup-zip.js';
import { SheetNames, sheetPath, workbookParts } from '../../lib/xlsx-parts.js';
import { SHEET_TAIL, sheetHead } from './backup-workbook.js';
import { copyInto } from './copy-frames.js';
import { backupConnection } from './copy-socket.js';
import { CopyXmlWorker } from './copy-worker.js';
import { TablePipe } from './table-pipe.js';
import { BACKUP_TABLES } from './backup-tables.js';

/**
 * Writes a full backup: one sheet per table of the allow-list (backup-tables.ts), a header row
 * of column names, then every row. A table past a sheet's 1,048,576 rows goes on in the next
 * sheet (`credit_transactions (2)`), which repeats the header.
 *
 * Every table is read in one REPEATABLE READ, READ ONLY transaction, so the workbook is one
 * consistent snapshot (a ledger entry never points at a user the users sheet lacks). Each table
 * comes out by a plain binary `COPY (SELECT ...) TO STDOUT` (values as they are stored: the
 * cheapest way out of PostgreSQL), on a connection of the backup's own whose socket reads into
 * memory kept for it (copy-socket.ts), read as CopyData frames (copy-frames.ts); a worker thread turns
 * them into sheet rows (copy-worker.ts, copy-to-xml.ts) and deflates them (a fast level: the XML
 * is repetitive, and shrinks well even so) on the libuv pool, while this thread reads
 * the socket and writes the compressed pieces into the zip (backup-zip.ts), so PostgreSQL, the
 * conversion and deflate run side by side and the XML never reaches this thread. Repeating
 * texts and ids become indexes into the workbook's shared strings (shared-strings.ts), which the
 * worker hands over after the last table. Batches in flight are bounded (table-pipe.ts) and
 * the output's backpressure reaches the socket: a table of millions of rows needs the memory of
 * a few batches.
 */

/** Progress is reported at least every this many rows (and at each table's end). */
export const PROGRESS_ROWS = 4000;
/** The longest one table's COPY may take (a few million rows take a minute or two). */
export const BACKUP_STATEMENT_TIMEOUT = '1h';

export interface BackupProgressSink {
  /** Rows written so far. */
  (rows: number): void;
}

export interface BackupResult {
  /** Rows per table (the sheets of one table summed). */
  rows: Record<string, number>;
  total: number;
}

/** Streams the backup workbook into `out`; resolves once `out` took every byte. */
export async function writeBackup(
  pool: pg.Pool,
  out: Writable,
  onProgress: BackupProgressSink = () => {},
): Promise<BackupResult> {
  const zip = new PackedZip(out);
  // A file stream is done with a piece once its write is called back: the piece's memory goes
  // back to the worker for a later batch (another stream might keep the bytes it was given).
  const reuse = out instanceof WriteStream;
  const names = new SheetNames();
  const rows: Record<string, number> = {};
  let total = 0;
  let reported = 0;
  const { client, release } = await backupConnection(pool);
  const worker = new CopyXmlWorker();
  let failed = false;
  // A COPY cut off midway leaves the connection unusable: it is closed, not rolled back.
  let copying = false;
  let sheetOpen = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // One COPY reads a whole table: millions of rows take longer than the pool's 60 s limit
    // on a statement, which is meant for requests. BACKUP_STATEMENT_TIMEOUT bounds it instead.
    await client.query(`SET LOCAL statement_timeout = '${BACKUP_STATEMENT_TIMEOUT}'`);
    const types = await columnTypes(client);
    for (const table of BACKUP_TABLES) {
      const head = sheetHead(table.columns.map(([name]) => name));
      const headCrc = zlib.crc32(head);
      const startSheet = async () => {
        if (sheetOpen) await zip.endEntry(SHEET_TAIL);
        names.add(table.name);
        await zip.startEntry(sheetPath(names.names.length));
        sheetOpen = true;
        await zip.write(pack(head));
      };
      await startSheet();
      rows[table.name] = 0;
      const plan = copyPlan(table, types.get(table.name) ?? new Map<string, string>());
      worker.startTable(plan.kinds);
      const pipe = new TablePipe(worker, headCrc, async (xml, n, newSheet) => {
        if (newSheet) await startSheet();
        await zip.write(
          xml,
          reuse ? () => worker.giveBack(xml.data.buffer as ArrayBuffer) : undefined,
        );
        rows[table.name]! += n;
        total += n;
        if (total - reported >= PROGRESS_ROWS) {
          reported = total;
          onProgress(total);
        }
      });
      copying = true;
      await copyInto(client, copySql(plan), pipe);
      await pipe.end();
      copying = false;
      await zip.endEntry(SHEET_TAIL);
      sheetOpen = false;
      reported = total;
      onProgress(total);
    }
    await client.query('COMMIT');
    const strings = await worker.sharedStrings();
    for (const [path, xml] of workbookParts(names.names, strings !== null)) {
      await zip.addFile(path, xml);
    }
    if (strings) await zip.addFile('xl/sharedStrings.xml', strings);
    await zip.finish();
    return { rows, total };
  } catch (err) {
    failed = true;
    if (!out.destroyed) out.destroy(err instanceof Error ? err : new Error(String(err)));
    throw err;
  } finally {
    if (failed && !copying) await client.query('ROLLBACK').catch(() => {});
    // A client left mid-transaction is broken: ended, or given back destroyed, not reused.
    await release(failed);
    await worker.close();
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
