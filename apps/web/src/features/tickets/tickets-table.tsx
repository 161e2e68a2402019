import { Button } from 'react-bootstrap';
import { TICKET_STATUS_VARIANTS, ui, type Ticket, type TicketList } from '@herald/contract';
import { DataTable, type Column } from '../../components/data-table';
import { LoadMoreFooter } from '../../components/load-more-footer';
import type { PagedMore } from '../../components/use-paged-rows';
import { StatusBadge } from '../../components/status-badge';
import { formatDateTime } from '../../lib/format';

interface TicketsTableProps extends PagedMore {
  pages: readonly TicketList[];
  /** Admin sees the User column. */
  showUser: boolean;
  onView: (ticket: Ticket) => void;
}

/** #, User (Admin only), Subject, Status, Assigned To, Last Updated, View. */
export function TicketsTable(props: TicketsTableProps) {
  const rows = props.pages.flatMap((p) => p.tickets);
  const columns: Column<Ticket>[] = [
    { header: '#', cell: (t) => t.number },
    ...(props.showUser
      ? [
          {
            header: 'User',
            cell: (t: Ticket) => t.userEmail,
            className: 'text-break',
          } satisfies Column<Ticket>,
        ]
      : []),
    { header: 'Subject', cell: (t) => t.subject, className: 'text-break w-25' },
    {
      header: 'Status',
      cell: (t) => <StatusBadge label={t.status} variant={TICKET_STATUS_VARIANTS[t.status]} />,
    },
    { header: 'Assigned To', cell: (t) => t.assignedTo || 'Admin', className: 'text-break' },
    { header: 'Last Updated', cell: (t) => formatDateTime(t.updatedAt) },
    {
      header: 'View',
      cell: (t) => (
        <Button
          size="sm"
          variant="outline-primary"
          onClick={() => props.onView(t)}
          aria-label={`View ticket ${t.number}`}
        >
          View
        </Button>
      ),
    },
  ];
  return (
    <>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(t) => t._id}
        emptyText={ui.tickets.empty}
        aria-label="Support tickets"
      />
      {rows.length > 0 && (
        <LoadMoreFooter
          hasNextPage={props.hasNextPage}
          isFetchingMore={props.isFetchingMore}
          moreFailed={props.moreFailed}
          onLoadMore={props.onLoadMore}
          noun="tickets"
          endText="No more tickets."
        />
      )}
    </>
  );
}
