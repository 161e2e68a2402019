import type { Writable } from 'node:stream';
import { HISTORY_COLUMNS, type HistoryColumn, type HistoryFilters } from '@herald/contract';
import type { AppContext } from '../../context.js';
import {
  XLSX_MAX_ROWS,
  XlsxWriter,
  type XlsxCell,
  type XlsxColumn,
} from '../../lib/xlsx-writer.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { presentCreditTransaction, type PresentableRow } from './credits.presenter.js';
import { historyRows, type HistoryFilter } from './history.repo.js';
import { historyScope, resolveFilter } from './history.service.js';

/**
 * Export to Excel (docs/product.md, Credits and the ledger): the filtered history as a real .xlsx, streamed.
 * Rows come in keyset batches and are written as they arrive, so memory stays bounded; past a
 * sheet's 1,048,576 rows the export goes on in a second sheet.
 */

export const XLSX_CONTENT_TYPE =
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const BATCH = 5_000;
const SHEET = 'Transactions';

/** Transaction History's columns (titles from the contract), with their widths and formats. */
const LAYOUT: Record<HistoryColumn, XlsxColumn> = {
  Date: { width: 20 },
  'To (Email)': { width: 30 },
  'To (Name)': { width: 22 },
  'By (Email)': { width: 30 },
  'By (Name)': { width: 22 },
  Type: { width: 10 },
  'Credit Type': { width: 30 },
  Count: { width: 10 },
  Rate: { width: 12, format: 'money' },
  'Total Amount': { width: 14, format: 'money' },
  Reason: { width: 40 },
};
const COLUMNS = HISTORY_COLUMNS.map((title) => ({ title, ...LAYOUT[title] }));

export interface HistoryExport {
  filename: string;
  /**
   * Writes the workbook to `out` and ends it; `rowsRead` runs once every row was read, before
   * the archive's last bytes are written (the database work is over by then).
   */
  write(out: Writable, rowsRead?: () => Promise<void>): Promise<void>;
}

/** Checks the filters (before any byte is sent) and returns the export to stream. */
export async function prepareHistoryExport(
  ctx: AppContext,
  actor: AuthUser,
  q: HistoryFilters,
  now = new Date(),
): Promise<HistoryExport> {
  const filter = await resolveFilter(ctx, actor, q);
  const offsetMs = q.tzOffset * 60_000;
  const today = new Date(now.getTime() - offsetMs).toISOString().slice(0, 10);
  return {
    filename: `transaction-history-${today}.xlsx`,
    write: (out, rowsRead) => writeWorkbook(ctx, actor, filter, offsetMs, out, rowsRead),
  };
}

async function writeWorkbook(
  ctx: AppContext,
  actor: AuthUser,
  filter: HistoryFilter | null,
  offsetMs: number,
  out: Writable,
  rowsRead?: () => Promise<void>,
): Promise<void> {
  const writer = new XlsxWriter(out);
  let sheets = 0;
  const startSheet = async () => {
    sheets++;
    await writer.addSheet(sheets === 1 ? SHEET : `${SHEET} (${sheets})`, {
      columns: COLUMNS,
      freezeHeader: true,
    });
    await writer.addRow(
      COLUMNS.map((c) => c.title),
      'bold',
    );
  };
  await startSheet();
  if (filter) {
    const scope = historyScope(actor);
    let before: string | undefined; // the whole filtered history, whatever cursor came
    for (;;) {
      const rows = await historyRows(ctx.pool, scope, { ...filter, before }, BATCH);
      for (const row of rows) {
        if (writer.rowsInSheet >= XLSX_MAX_ROWS) await startSheet();
        await writer.addRow(cells(row, offsetMs));
      }
      const last = rows.at(-1);
      if (rows.length < BATCH || !last) break;
      before = last.id;
    }
  }
  await rowsRead?.();
  await writer.finish();
}

/** One entry as a row: the date in the viewer's local time, amounts as numbers. */
function cells(row: PresentableRow, offsetMs: number): XlsxCell[] {
  const t = presentCreditTransaction(row);
  return [
    new Date(row.created_at.getTime() - offsetMs),
    t.to,
    t.toName,
    t.by,
    t.byName,
    t.type,
    t.creditType,
    t.count,
    t.rate,
    t.totalAmount,
    t.reason,
  ];
}
