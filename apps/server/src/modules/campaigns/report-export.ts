import type { ReportEntry } from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import { reportEntries, type ReportRowFilter } from './campaign-actions.repo.js';
import { csvText } from './report-csv.js';

/**
 * A report as CSV (docs/product.md, Campaigns): the export's file and the campaign zip's
 * report.csv. Read in keyset batches as the consumer takes the text, so memory holds one batch
 * whatever the report's size; cells are formula-safe (csvText).
 */

export const REPORT_CSV_HEADER = ['recipient', 'status', 'reason', 'last_change'] as const;
const BATCH = 10_000;

function cells(e: ReportEntry): string[] {
  return [e.recipient, e.status, e.reason ?? '', e.changedAt ?? ''];
}

/** The header, then the rows of `filter` in number order. */
export async function* reportCsvChunks(
  db: DbOrTx,
  campaignId: string,
  filter: ReportRowFilter = { status: 'all' },
): AsyncGenerator<string> {
  yield csvText([[...REPORT_CSV_HEADER]]);
  let after: string | undefined;
  for (;;) {
    const entries = await reportEntries(db, campaignId, after, BATCH, filter);
    if (entries.length > 0) yield csvText(entries.map(cells));
    const last = entries.at(-1);
    if (entries.length < BATCH || !last) return;
    after = last.recipient;
  }
}
