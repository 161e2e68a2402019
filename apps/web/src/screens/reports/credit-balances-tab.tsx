import { useMemo } from 'react';
import { Alert } from 'react-bootstrap';
import { USERS_PAGE_MAX, ui, type SessionUser } from '@herald/contract';
import { DataTable, type Column } from '../../components/data-table';
import { LoadingSpinner } from '../../components/loading-spinner';
import { errorMessage } from '../../lib/api-client';
import { useBalances } from '../../api/credits/get-balances';
import { useUsers } from '../../api/users/get-users';
import { balanceRows, type BalanceRow } from './reports-data';

const columns: Column<BalanceRow>[] = [
  { header: 'User', cell: (r) => r.name },
  { header: 'Email', cell: (r) => r.email },
  { header: 'Credit Type', cell: (r) => r.creditType },
  { header: 'Balance', cell: (r) => r.balance.toLocaleString(), className: 'text-end' },
];

/** Reports › Credit Balances: every user's balance per credit type. */
export function CreditBalancesTab({ me }: { me: SessionUser }) {
  const balances = useBalances();
  // Names for the first page of users; a balance of a user beyond it shows '-'.
  const users = useUsers({ limit: USERS_PAGE_MAX });
  const rows = useMemo(
    () =>
      balanceRows(
        balances.data,
        users.data?.pages.flatMap((p) => p.users),
        me,
      ),
    [balances.data, users.data, me],
  );
  if (balances.isPending || users.isPending) return <LoadingSpinner label="Loading balances..." />;
  const error = balances.error ?? users.error;
  if (error) return <Alert variant="danger">{errorMessage(error, ui.reports.loadFailed)}</Alert>;
  return (
    <DataTable
      aria-label="Credit Balances"
      columns={columns}
      rows={rows}
      rowKey={(r) => r.key}
      emptyText="No credit balances yet."
    />
  );
}
