import type { ReactNode } from 'react';
import { Alert } from 'react-bootstrap';
import { DataTable, type DataTableProps } from './data-table';
import { LoadingSpinner } from './loading-spinner';
import { LoadMoreFooter } from './load-more-footer';
import type { PagedMore } from './use-paged-rows';

interface PagedTableProps<T> extends DataTableProps<T> {
  /** A spinner with `loadingLabel` in place of the table. */
  loading: boolean;
  loadingLabel: string;
  /** The first page failed: this message in place of the table; null when it did not. */
  error: ReactNode;
  /** The "load more" end (usePagedRows); null for a list of one page. */
  more: PagedMore | null;
  /** What the list holds, for the spinner's label and the retry line ("users"). */
  noun: string;
  /** Shown once everything is loaded. */
  endText: string;
}

/**
 * A list loaded page by page: a spinner for the first page, its error, or the table (its empty
 * notice when there are no rows) followed by the next pages as its end scrolls into view.
 */
export function PagedTable<T>(props: PagedTableProps<T>) {
  const { loading, loadingLabel, error, more, noun, endText, ...table } = props;
  if (loading) return <LoadingSpinner label={loadingLabel} />;
  if (error) {
    return (
      <Alert variant="danger" className="mb-0">
        {error}
      </Alert>
    );
  }
  return (
    <>
      <DataTable {...table} />
      {more && table.rows.length > 0 && <LoadMoreFooter {...more} noun={noun} endText={endText} />}
    </>
  );
}
