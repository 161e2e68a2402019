import { useMemo } from 'react';
import { Alert } from 'react-bootstrap';
import { BALANCES_SCREEN_PAGE, ui, formatCount } from '@herald/contract';
import { DataTable, type Column } from '../../components/data-table';
import { LoadMoreFooter } from '../../components/load-more-footer';
import { LoadingSpinner } from '../../components/loading-spinner';
import { usePagedMore } from '../../components/use-paged-rows';
import { errorMessage } from '../../lib/api-client';
import { useBalancePages } from '../../api/credits/get-balances';
import { balanceRows, type BalanceRow } from './reports-data';

const columns: Column<BalanceRow>[] = [
  { header: 'Email', cell: (r) => r.email },
  { header: 'Credit Type', cell: (r) => r.creditType },
  { header: 'Balance', cell: (r) => formatCount(r.balance), className: 'text-end' },
];

/**
 * Reports › Credit Balances: each user's balance per credit type, by email, BALANCES_SCREEN_PAGE
 * users at a time; more load as the table's end scrolls into view.
 */
export function CreditBalancesTab() {
  const balances = useBalancePages(BALANCES_SCREEN_PAGE);
  const more = usePagedMore(balances);
  const pages = balances.data?.pages;
  const rows = useMemo(() => balanceRows(pages?.map((p) => p.balances)), [pages]);

  if (balances.isPending) return <LoadingSpinner label="Loading balances..." />;
  if (balances.isError && !balances.isFetchNextPageError) {
    return <Alert variant="danger">{errorMessage(balances.error, ui.reports.loadFailed)}</Alert>;
  }
  return (
    <>
      <DataTable
        aria-label="Credit Balances"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.key}
        emptyText="No credit balances yet."
      />
      {rows.length > 0 && <LoadMoreFooter {...more} noun="balances" endText="End of balances" />}
    </>
  );
}
