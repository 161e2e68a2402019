import { useEffect, useMemo, useState } from 'react';
import { Button, Spinner, Table } from 'react-bootstrap';
import type { CampaignReport } from '@herald/contract';
import { StatusBadge } from '../../../components/status-badge';
import { reportStatusVariant } from '../campaigns-data';
import { entryAt, ENTRY_ROW_PX, pageStarts, VIEW_PX, visibleRange } from './report-window';

/** Ask for the next page this many rows before the loaded end comes into view. */
const PREFETCH_ROWS = 200;

interface ReportEntriesProps {
  pages: readonly CampaignReport[];
  hasNextPage: boolean;
  isFetchingMore: boolean;
  moreFailed: boolean;
  onLoadMore: () => void;
}

/**
 * The report's recipients, windowed: however many pages were loaded (a report may hold a
 * million rows), only the rows in view are in the DOM, between two spacer rows.
 */
export function ReportEntries(props: ReportEntriesProps) {
  const { pages, hasNextPage, isFetchingMore, moreFailed, onLoadMore } = props;
  const [scrollTop, setScrollTop] = useState(0);
  const starts = useMemo(() => pageStarts(pages), [pages]);
  const loaded = starts[starts.length - 1] ?? 0;
  const { first, last } = visibleRange(scrollTop, loaded);
  const nearEnd = last + PREFETCH_ROWS >= loaded;

  useEffect(() => {
    if (nearEnd && hasNextPage && !isFetchingMore && !moreFailed) onLoadMore();
  }, [nearEnd, hasNextPage, isFetchingMore, moreFailed, onLoadMore]);

  const rows = [];
  for (let i = first; i < last; i++) {
    const e = entryAt(pages, starts, i);
    rows.push(
      // Striping by index: CSS nth-of-type would flip as the window moves.
      <tr key={i} style={{ height: ENTRY_ROW_PX }} className={i % 2 ? undefined : 'table-light'}>
        <td className="font-monospace text-nowrap">{e.recipient}</td>
        <td className="text-nowrap">
          <StatusBadge label={e.status} variant={reportStatusVariant(e.status)} />
        </td>
      </tr>,
    );
  }

  return (
    <div
      className="border rounded"
      style={{ height: VIEW_PX, overflowY: 'auto' }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      data-testid="report-entries"
    >
      <Table size="sm" className="mb-0" aria-label="Delivery report" aria-rowcount={loaded + 1}>
        <thead className="sticky-top">
          <tr>
            <th>Recipient</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {first > 0 && <tr aria-hidden="true" style={{ height: first * ENTRY_ROW_PX }} />}
          {rows}
          {last < loaded && (
            <tr aria-hidden="true" style={{ height: (loaded - last) * ENTRY_ROW_PX }} />
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
        ) : (
          <span>End of report</span>
        )}
      </div>
    </div>
  );
}
