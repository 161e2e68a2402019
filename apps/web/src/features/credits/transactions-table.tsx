import { useCallback, useMemo } from 'react';
import { Alert, Card } from 'react-bootstrap';
import {
  ADMIN_RECENT_TRANSACTIONS,
  CREDIT_LIST_DEFAULT,
  ui,
  type CreditTransaction,
  type Role,
} from '@herald/contract';
import { formatDateTime, orDash } from '../../lib/format';
import { DataTable, type Column } from '../../components/data-table';
import { LoadingSpinner } from '../../components/loading-spinner';
import { LoadMoreFooter } from '../../components/load-more-footer';
import { StatusBadge } from '../../components/status-badge';
import { useCredits } from '../../api/credits/get-credits';
import { loadErrorMessage } from './credit-form-logic';

type Tx = CreditTransaction;

const typeBadge = (t: Tx) => (
  <StatusBadge label={t.type} variant={t.type === 'Added' ? 'success' : 'danger'} />
);

/** Admin: the latest entries (spec 2.8). */
const RECENT_COLUMNS: Column<Tx>[] = [
  { header: 'To', cell: (t) => t.to },
  { header: 'Type', cell: typeBadge },
  { header: 'Count', cell: (t) => t.count, className: 'text-end' },
  { header: 'Credit Type', cell: (t) => t.creditType },
  { header: 'Date', cell: (t) => formatDateTime(t.createdAt) },
];

/** Reseller / Sub-Reseller: every entry in scope, with who made it and why. */
const ALL_COLUMNS: Column<Tx>[] = [
  { header: 'Date', cell: (t) => formatDateTime(t.createdAt) },
  { header: 'To', cell: (t) => t.to },
  { header: 'By', cell: (t) => t.by },
  { header: 'Type', cell: typeBadge },
  { header: 'Credit Type', cell: (t) => t.creditType },
  { header: 'Count', cell: (t) => t.count, className: 'text-end' },
  { header: 'Reason', cell: (t) => orDash(t.reason) },
];

/**
 * The transactions card of Credit Management: Admin sees the latest 20; resellers see every
 * entry of their scope, loaded page by page as they scroll, each page fetched with a time
 * stamp so no cache answers (spec 7).
 */
export function TransactionsTable({ role }: { role: Role }) {
  const isAdmin = role === 'Admin';
  const credits = useCredits(
    isAdmin
      ? { limit: ADMIN_RECENT_TRANSACTIONS }
      : { limit: CREDIT_LIST_DEFAULT, bustCache: true },
  );
  const { fetchNextPage, hasNextPage, isFetching, isFetchNextPageError } = credits;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetching]);
  const rows = useMemo(
    () => credits.data?.pages.flatMap((p) => p.transactions) ?? [],
    [credits.data],
  );
  const title = isAdmin ? 'Recent Transactions' : 'All Transactions';
  const failed = credits.isError && !isFetchNextPageError;
  return (
    <Card className="shadow-sm">
      <Card.Header as="h2" className="h5 mb-0">
        {title}
      </Card.Header>
      <Card.Body>
        {credits.isPending ? (
          <LoadingSpinner label="Loading transactions..." />
        ) : failed ? (
          <Alert variant="danger" className="mb-0">
            {loadErrorMessage(role, credits.error)}
          </Alert>
        ) : (
          <>
            <DataTable
              aria-label={title}
              columns={isAdmin ? RECENT_COLUMNS : ALL_COLUMNS}
              rows={isAdmin ? rows.slice(0, ADMIN_RECENT_TRANSACTIONS) : rows}
              rowKey={(t) => t.id}
              emptyText={ui.credits.noTransactions}
            />
            {!isAdmin && rows.length > 0 && (
              <LoadMoreFooter
                hasNextPage={hasNextPage}
                isFetchingMore={credits.isFetchingNextPage}
                moreFailed={isFetchNextPageError}
                onLoadMore={loadMore}
                noun="transactions"
                endText="End of transactions"
              />
            )}
          </>
        )}
      </Card.Body>
    </Card>
  );
}
