import type { Writable } from 'node:stream';
import type pg from 'pg';
import { XlsxWriter } from '../../lib/xlsx-writer.js';
import { copyPlan, copySql } from './backup-rows-sql.js';
import { beginSnapshot, columnTypes, copyOut, endSnapshot } from './backup.repo.js';
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
 * cheapest way out of PostgreSQL), read through pg-copy-streams on a client of the pool and cut
 * into batches of whole tuples (table-pipe.ts, copy-binary.ts); a worker thread turns them into
 * sheet rows (copy-worker.ts, copy-to-xml.ts), and this thread writes their XML into the
 * workbook (lib/xlsx-writer.ts, lib/zip-stream.ts: zlib deflates on the libuv pool at a fast level, as the
 * XML is repetitive and shrinks well even so), so PostgreSQL, the conversion and deflate run
 * side by side. Repeating texts and ids become indexes into the workbook's shared strings
 * (shared-strings.ts), which the worker hands over after the last table. Batches in flight are
 * bounded (table-pipe.ts) and the output's backpressure reaches the connection: a table of
 * millions of rows needs the memory of a few batches.
 */

/** Bytes of COPY data pg-copy-streams may hold before it stops reading the connection. */
const COPY_CHUNK_BYTES = 256 * 1024;
/**
 * A sheet's deflate level, and how much XML its entry holds before a write waits (a batch's XML
 * is about 600 KB). Level 2 costs zlib no more than level 1 on sheet XML, and its output is 8%
 * smaller.
 */
const SHEET_OPTIONS = { freezeHeader: true, compressionLevel: 2, bufferBytes: 1 << 20 };

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
  const book = new XlsxWriter(out);
  const rows: Record<string, number> = {};
  let total = 0;
  let reported = 0;
  const client = await pool.connect();
  const worker = new CopyXmlWorker();
  let failed = false;
  // A COPY cut off midway leaves the connection unusable: it is closed, not rolled back.
  let copying = false;
  try {
    await beginSnapshot(client, BACKUP_STATEMENT_TIMEOUT);
    const types = await columnTypes(client);
    for (const table of BACKUP_TABLES) {
      const startSheet = async () => {
        await book.addSheet(table.name, SHEET_OPTIONS);
        await book.addRow(
          table.columns.map(([name]) => name),
          'bold',
        );
      };
      await startSheet();
      rows[table.name] = 0;
      const plan = copyPlan(table, types.get(table.name) ?? new Map<string, string>());
      worker.startTable(plan.kinds);
      const pipe = new TablePipe(worker, async (xml, n, newSheet) => {
        if (newSheet) await startSheet();
        await book.addRowsXml(xml, n);
        rows[table.name]! += n;
        total += n;
        if (total - reported >= PROGRESS_ROWS) {
          reported = total;
          onProgress(total);
        }
      });
      copying = true;
      await pipe.read(copyOut(client, copySql(plan), COPY_CHUNK_BYTES));
      copying = false;
      reported = total;
      onProgress(total);
    }
    await endSnapshot(client, 'COMMIT');
    await book.finish(await worker.sharedStrings());
    return { rows, total };
  } catch (err) {
    failed = true;
    if (!out.destroyed) out.destroy(err instanceof Error ? err : new Error(String(err)));
    throw err;
  } finally {
    if (failed && !copying) await endSnapshot(client, 'ROLLBACK').catch(() => {});
    // A client left mid-transaction or mid-COPY is broken: the pool destroys it, not reused.
    client.release(failed);
    await worker.close();
  }
}

export const BACKUP_TABLE_NAMES = BACKUP_TABLES.map((t) => t.name);
