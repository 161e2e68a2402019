import { Card } from 'react-bootstrap';
import {
  ADMIN_RECENT_TRANSACTIONS,
  CREDIT_LIST_DEFAULT,
  ui,
  type CreditTransaction,
  type CreditTransactionList,
  type Role,
} from '@herald/contract';
import { formatDateTime, orDash } from '../../lib/format';
import type { Column } from '../../components/data-table';
import { PagedTable } from '../../components/paged-table';
import { usePagedRows } from '../../components/use-paged-rows';
import { StatusBadge } from '../../components/status-badge';
import { useCredits } from '../../api/credits/get-credits';
import { loadErrorMessage } from './credit-form-logic';

type Tx = CreditTransaction;

const transactionsOf = (page: CreditTransactionList) => page.transactions;

const typeBadge = (t: Tx) => (
  <StatusBadge label={t.type} variant={t.type === 'Added' ? 'success' : 'danger'} />
);

/** Admin: the latest entries. */
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
 * stamp so no HTTP cache answers with an old page.
 */
export function TransactionsTable({ role }: { role: Role }) {
  const isAdmin = role === 'Admin';
  const credits = useCredits(
    isAdmin
      ? { limit: ADMIN_RECENT_TRANSACTIONS }
      : { limit: CREDIT_LIST_DEFAULT, bustCache: true },
  );
  const { rows, loading, failed, more } = usePagedRows(credits, transactionsOf);
  const title = isAdmin ? 'Recent Transactions' : 'All Transactions';
  return (
    <Card className="shadow-sm">
      <Card.Header as="h2" className="h5 mb-0">
        {title}
      </Card.Header>
      <Card.Body>
        <PagedTable
          loading={loading}
          loadingLabel="Loading transactions..."
          error={failed ? loadErrorMessage(role, credits.error) : null}
          aria-label={title}
          columns={isAdmin ? RECENT_COLUMNS : ALL_COLUMNS}
          rows={isAdmin ? rows.slice(0, ADMIN_RECENT_TRANSACTIONS) : rows}
          rowKey={(t) => t.id}
          emptyText={ui.credits.noTransactions}
          more={isAdmin ? null : more}
          noun="transactions"
          endText="End of transactions"
        />
      </Card.Body>
    </Card>
  );
}
