import { useCallback } from 'react';
import { Alert } from 'react-bootstrap';
import { ui } from '@herald/contract';
import { LoadingSpinner } from '../../components/loading-spinner';
import { errorMessage } from '../../lib/api-client';
import { EMPTY_HISTORY_FILTERS, useHistory } from '../../api/history/get-history';
import { countRows } from '../../features/history/history-data';
import { HistoryTable } from '../../features/history/history-table';

/** Reports › Credit Transactions: the whole ledger, newest first, loaded as it scrolls. */
export function CreditTransactionsTab() {
  const history = useHistory(EMPTY_HISTORY_FILTERS, true);
  const { fetchNextPage, hasNextPage, isFetching, isFetchNextPageError } = history;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetching]);

  if (history.isPending) return <LoadingSpinner label="Loading transactions..." />;
  if (history.isError && !isFetchNextPageError) {
    return <Alert variant="danger">{errorMessage(history.error, ui.reports.loadFailed)}</Alert>;
  }
  const pages = history.data?.pages ?? [];
  if (countRows(pages) === 0) return <Alert variant="info">{ui.history.empty}</Alert>;
  return (
    <HistoryTable
      pages={pages}
      hasNextPage={hasNextPage}
      isFetchingMore={history.isFetchingNextPage}
      moreFailed={isFetchNextPageError}
      onLoadMore={loadMore}
    />
  );
}
