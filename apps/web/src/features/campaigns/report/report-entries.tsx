import { useEffect, useMemo, useState } from 'react';
import { Button, Spinner, Table } from 'react-bootstrap';
import { ui, type CampaignReport, type ReportEntry } from '@herald/contract';
import { StatusBadge } from '../../../components/status-badge';
import { formatDateTime } from '../../../lib/format';
import { reportStatusVariant } from '../campaigns-data';
import {
  entryAt,
  ENTRY_ROW_COMPACT_PX,
  ENTRY_ROW_PX,
  pageStarts,
  VIEW_PX,
  visibleRange,
} from './report-window';
import { useCompactReport } from './use-compact';

/** Ask for the next page this many rows before the loaded end comes into view. */
const PREFETCH_ROWS = 200;

const t = ui.reports;

interface ReportEntriesProps {
  pages: readonly CampaignReport[];
  hasNextPage: boolean;
  isFetchingMore: boolean;
  moreFailed: boolean;
  onLoadMore: () => void;
}

/** One line that never wraps (rows have a fixed height): cut with "…", whole in the tooltip. */
function Cut({ text, className = '' }: { text: string; className?: string }) {
  return (
    <div className={`text-truncate ${className}`} title={text}>
      {text}
    </div>
  );
}

function WideRow({ e }: { e: ReportEntry }) {
  return (
    <>
      <td className="font-monospace text-nowrap">{e.recipient}</td>
      <td className="text-nowrap">
        <StatusBadge label={e.status} variant={reportStatusVariant(e.status)} />
      </td>
      <td>
        <Cut text={e.reason ?? '-'} className={e.reason ? '' : 'text-muted'} />
      </td>
      <td className="text-nowrap small">{formatDateTime(e.changedAt)}</td>
    </>
  );
}

/** On a phone, one cell of three lines: number and status, the reason, the last change. */
function CompactRow({ e }: { e: ReportEntry }) {
  return (
    <td>
      <div className="d-flex justify-content-between align-items-center gap-2">
        <span className="font-monospace">{e.recipient}</span>
        <StatusBadge label={e.status} variant={reportStatusVariant(e.status)} />
      </div>
      <Cut text={e.reason ?? ''} className="small" />
      <div className="small text-muted text-nowrap">
        {t.columnChanged}: {formatDateTime(e.changedAt)}
      </div>
    </td>
  );
}

/**
 * The report's recipients, windowed: however many pages were loaded (a report may hold a
 * million rows), only the rows in view are in the DOM, between two spacer rows. Every row has
 * one height (three lines on a phone), so a long reason is cut and shown whole on hover.
 */
export function ReportEntries(props: ReportEntriesProps) {
  const { pages, hasNextPage, isFetchingMore, moreFailed, onLoadMore } = props;
  const compact = useCompactReport();
  const rowPx = compact ? ENTRY_ROW_COMPACT_PX : ENTRY_ROW_PX;
  const [scrollTop, setScrollTop] = useState(0);
  const starts = useMemo(() => pageStarts(pages), [pages]);
  const loaded = starts[starts.length - 1] ?? 0;
  const { first, last } = visibleRange(scrollTop, loaded, rowPx);
  const nearEnd = last + PREFETCH_ROWS >= loaded;

  useEffect(() => {
    if (nearEnd && hasNextPage && !isFetchingMore && !moreFailed) onLoadMore();
  }, [nearEnd, hasNextPage, isFetchingMore, moreFailed, onLoadMore]);

  const rows = [];
  for (let i = first; i < last; i++) {
    const e = entryAt(pages, starts, i);
    rows.push(
      // Striping by index: CSS nth-of-type would flip as the window moves.
      <tr key={i} style={{ height: rowPx }} className={i % 2 ? undefined : 'table-light'}>
        {compact ? <CompactRow e={e} /> : <WideRow e={e} />}
      </tr>,
    );
  }
  const columns = compact ? 1 : 4;

  return (
    <div
      className="border rounded"
      style={{ height: VIEW_PX, overflowY: 'auto' }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      data-testid="report-entries"
    >
      {/* Fixed layout: the columns keep their widths as the window's rows change. */}
      <Table
        size="sm"
        className="mb-0"
        style={{ tableLayout: 'fixed' }}
        aria-label="Delivery report"
        aria-rowcount={loaded + 1}
      >
        <thead className="sticky-top">
          {compact ? (
            <tr>
              <th>
                <div className="d-flex justify-content-between">
                  <span>{t.columnRecipient}</span>
                  <span>{t.columnStatus}</span>
                </div>
              </th>
            </tr>
          ) : (
            <tr>
              <th style={{ width: '8.5rem' }}>{t.columnRecipient}</th>
              <th style={{ width: '7rem' }}>{t.columnStatus}</th>
              <th>{t.columnReason}</th>
              <th style={{ width: '11rem' }}>{t.columnChanged}</th>
            </tr>
          )}
        </thead>
        <tbody>
          {first > 0 && <tr aria-hidden="true" style={{ height: first * rowPx }} />}
          {rows}
          {last < loaded && <tr aria-hidden="true" style={{ height: (loaded - last) * rowPx }} />}
          {loaded === 0 && !hasNextPage && (
            <tr>
              <td colSpan={columns} className="text-center text-muted py-4">
                {t.noMatch}
              </td>
            </tr>
          )}
        </tbody>
      </Table>
      <div className="text-center small text-muted py-2">
        {isFetchingMore ? (
          <Spinner animation="border" size="sm" role="status">
            <span className="visually-hidden">Loading more entries...</span>
          </Spinner>
        ) : moreFailed ? (
          <Button size="sm" variant="outline-secondary" onClick={onLoadMore}>
            Try again
          </Button>
        ) : hasNextPage ? (
          <Button size="sm" variant="outline-secondary" onClick={onLoadMore}>
            Load more
          </Button>
        ) : loaded > 0 ? (
          <span>End of report</span>
        ) : null}
      </div>
    </div>
  );
}
