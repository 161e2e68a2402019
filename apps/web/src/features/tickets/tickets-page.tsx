import { useState } from 'react';
import { Alert, Button, Card } from 'react-bootstrap';
import { useSearchParams } from 'react-router';
import { ui } from '@herald/contract';
import { LoadingSpinner } from '../../components/loading-spinner';
import { usePagedMore } from '../../components/use-paged-rows';
import { useSession } from '../../lib/auth-store';
import { useTickets } from '../../api/tickets/get-tickets';
import { FailureAlert } from './failure-alert';
import { CreateTicketDialog } from './create-ticket-dialog';
import { TicketDetailDialog } from './ticket-detail-dialog';
import { TicketsTable } from './tickets-table';

/** Support Tickets: the caller's tickets, the create modal and the detail modal. */
export function TicketsPage() {
  const session = useSession();
  const me = session?.user;
  const list = useTickets(!!me);
  const [creating, setCreating] = useState(false);
  // A notification links to /tickets?ticket={id}: that ticket opens at once.
  const [params, setParams] = useSearchParams();
  const linked = params.get('ticket');
  const [picked, setPicked] = useState<string | null>(null);
  const openId = picked ?? linked;
  const close = () => {
    setPicked(null);
    if (linked) setParams({}, { replace: true });
  };
  const more = usePagedMore(list);

  if (!me) return <Alert variant="danger">{ui.tickets.pleaseLogIn}</Alert>;

  const loadFailed = list.isError && !list.isFetchNextPageError;
  let body;
  if (loadFailed) {
    body = <FailureAlert error={list.error} message={ui.tickets.loadFailed} />;
  } else if (list.isPending) {
    body = <LoadingSpinner label="Loading tickets..." />;
  } else {
    body = (
      <TicketsTable
        pages={list.data.pages}
        showUser={me.role === 'Admin'}
        onView={(t) => setPicked(t._id)}
        {...more}
      />
    );
  }

  return (
    <div>
      <div className="d-flex justify-content-between align-items-center mb-3">
        <h1 className="h3 mb-0">Support Tickets</h1>
        <Button onClick={() => setCreating(true)}>Create Ticket</Button>
      </div>
      <Card className="shadow-sm">
        <Card.Body>{body}</Card.Body>
      </Card>
      {creating && <CreateTicketDialog me={me} onClose={() => setCreating(false)} />}
      {openId !== null && <TicketDetailDialog id={openId} me={me} onClose={close} />}
    </div>
  );
}
