import { memo } from 'react';
import { Badge, Table } from 'react-bootstrap';
import {
  formatRupees,
  HISTORY_COLUMNS,
  type CreditTransaction,
  type HistoryReply,
} from '@herald/contract';
import { formatDateTime, orDash } from '../../lib/format';
import { LoadMoreFooter } from '../../components/load-more-footer';
import type { PagedMore } from '../../components/use-paged-rows';
import { pageTransactions, transactionTypeVariant } from './history-data';
import { ScrollBox } from '../../components/scroll-box';

const HistoryRow = memo(function HistoryRow({ tx }: { tx: CreditTransaction }) {
  return (
    <tr>
      <td className="text-nowrap">{formatDateTime(tx.createdAt)}</td>
      <td>{tx.to}</td>
      <td>{tx.toName}</td>
      <td>{tx.by}</td>
      <td>{tx.byName}</td>
      <td>
        <Badge bg={transactionTypeVariant(tx.type)}>{tx.type}</Badge>
      </td>
      <td>{tx.creditType}</td>
      <td>{tx.count}</td>
      <td className="text-nowrap">{formatRupees(tx.rate)}</td>
      <td className="text-nowrap fw-bold">{formatRupees(tx.totalAmount)}</td>
      <td>{orDash(tx.reason)}</td>
    </tr>
  );
});

/**
 * One fetched page. Pages already loaded keep their identity (TanStack's structural sharing),
 * so appending a page renders only the new one.
 */
const PageRows = memo(function PageRows({ rows }: { rows: readonly CreditTransaction[] }) {
  return rows.map((tx) => <HistoryRow key={tx._id || tx.id} tx={tx} />);
});

interface HistoryTableProps extends PagedMore {
  pages: readonly HistoryReply[];
}

/** The striped, hoverable ledger table, loading more as its end nears. */
export function HistoryTable(props: HistoryTableProps) {
  const { pages, ...more } = props;
  return (
    <>
      <ScrollBox label="Transaction history">
        <Table striped hover className="mb-0" aria-label="Transaction history">
          <thead>
            <tr>
              {HISTORY_COLUMNS.map((c) => (
                <th key={c} className="text-nowrap">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {pages.map((page, i) => (
              <PageRows key={i} rows={pageTransactions(page)} />
            ))}
          </tbody>
        </Table>
      </ScrollBox>
      <LoadMoreFooter {...more} noun="transactions" endText="End of history" />
    </>
  );
}
