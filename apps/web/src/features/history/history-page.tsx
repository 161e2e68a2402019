import { useMemo, useState } from 'react';
import { Alert, Card } from 'react-bootstrap';
import { ui } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { useSession } from '../../lib/auth-store';
import { LoadingSpinner } from '../../components/loading-spinner';
import { usePagedMore } from '../../components/use-paged-rows';
import {
  EMPTY_HISTORY_FILTERS,
  useHistory,
  type HistoryFilterValues,
} from '../../api/history/get-history';
import { countRows, filtersProblem, firstPageLists } from './history-data';
import { HistoryFilters } from './history-filters';
import { HistoryTable } from './history-table';
import { RemainingCredits } from './remaining-credits';

/** Transaction History: the caller's ledger scope, filtered, loaded as it scrolls. */
export function HistoryPage() {
  const session = useSession();
  const [filters, setFilters] = useState<HistoryFilterValues>(EMPTY_HISTORY_FILTERS);
  // Start after End is refused here with the server's own message, without a request.
  const problem = useMemo(() => filtersProblem(filters), [filters]);
  const history = useHistory(filters, !!session && !problem);
  const more = usePagedMore(history);

  if (!session) return <Alert variant="danger">{ui.history.pleaseLogIn}</Alert>;

  // A failed load clears the rows, balances, credit types and users; a failed
  // "load more" keeps what is shown. Placeholder data (the previous filters' result) only
  // feeds the lists while the new result loads.
  const loadFailed = history.isError && !history.isFetchNextPageError;
  const data = loadFailed ? undefined : history.data;
  const lists = firstPageLists(data?.pages[0]);
  const loading = !problem && !loadFailed && (history.isPending || history.isPlaceholderData);
  const pages = loading || problem || !data ? [] : data.pages;
  const rowCount = countRows(pages);
  const banner =
    problem ?? (history.isError ? errorMessage(history.error, ui.history.loadFailed) : null);

  let body;
  if (loading) body = <LoadingSpinner label="Loading transactions..." />;
  else if (problem || loadFailed) body = null;
  else if (rowCount === 0) {
    body = (
      <Alert variant="info" className="mb-0">
        {ui.history.empty}
      </Alert>
    );
  } else {
    body = (
      <Card className="shadow-sm">
        <Card.Body>
          <HistoryTable pages={pages} {...more} />
        </Card.Body>
      </Card>
    );
  }

  return (
    <div>
      <h1 className="h3 mb-3">Transaction History</h1>
      {banner && <Alert variant="danger">{banner}</Alert>}
      {session.user.role !== 'Admin' && <RemainingCredits credits={lists.remaining} />}
      <HistoryFilters
        values={filters}
        onChange={setFilters}
        users={lists.users}
        creditTypes={lists.creditTypes}
        canExport={!loading && !problem && rowCount > 0}
      />
      {body}
    </div>
  );
}
