import { useEffect, useMemo, useState } from 'react';
import { Button, Form, InputGroup } from 'react-bootstrap';
import {
  TICKET_ADMIN_ASSIGNEE,
  TICKET_STATUSES,
  USERS_PAGE_MAX,
  ui,
  type TicketDetail,
  type TicketStatus,
} from '@herald/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useAssignTicket } from '../../api/tickets/assign-ticket';
import { useEscalateTicket } from '../../api/tickets/escalate-ticket';
import { useUpdateTicketStatus } from '../../api/tickets/update-ticket-status';
import { useUsers } from '../../api/users/get-users';
import { FailureAlert } from './failure-alert';
import { assigneeOptions } from './tickets-data';

/** Admin: the status with Update, and the assignee (Admin or a reseller) with Assign. */
export function TicketAdminControls({ ticket }: { ticket: TicketDetail }) {
  const [status, setStatus] = useState<TicketStatus>(ticket.status);
  const [assignee, setAssignee] = useState(ticket.assignedTo || TICKET_ADMIN_ASSIGNEE);
  const users = useUsers({ role: 'Reseller', limit: USERS_PAGE_MAX });
  const { hasNextPage, isFetching, fetchNextPage } = users;
  // The reseller list is every user filtered to Resellers: the server filters, and the
  // few pages of Resellers are all read.
  useEffect(() => {
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [hasNextPage, isFetching, fetchNextPage]);
  const options = useMemo(
    () => assigneeOptions(users.data?.pages.flatMap((p) => p.users) ?? []),
    [users.data],
  );
  const update = useUpdateTicketStatus();
  const assign = useAssignTicket();

  return (
    <div className="border rounded p-2 mb-3">
      {update.isError && <FailureAlert error={update.error} message={ui.tickets.statusFailed} />}
      {assign.isError && <FailureAlert error={assign.error} message={ui.tickets.assignFailed} />}
      <Form.Label htmlFor="ticket-status">Change Status</Form.Label>
      <InputGroup className="mb-2">
        <Form.Select
          id="ticket-status"
          value={status}
          onChange={(e) => setStatus(e.target.value as TicketStatus)}
        >
          {TICKET_STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </Form.Select>
        <Button
          disabled={update.isPending}
          onClick={() => update.mutate({ id: ticket._id, status })}
        >
          Update
        </Button>
      </InputGroup>
      <Form.Label htmlFor="ticket-assignee">Assign To</Form.Label>
      <InputGroup>
        <Form.Select
          id="ticket-assignee"
          value={assignee}
          onChange={(e) => setAssignee(e.target.value)}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Form.Select>
        <Button
          disabled={assign.isPending}
          onClick={() => assign.mutate({ id: ticket._id, assignee })}
        >
          Assign
        </Button>
      </InputGroup>
    </div>
  );
}

/** The assigned Reseller's Escalate, after its confirmation. */
export function EscalateButton({ ticket }: { ticket: TicketDetail }) {
  const [confirming, setConfirming] = useState(false);
  const escalate = useEscalateTicket();
  return (
    <>
      {escalate.isError && (
        <FailureAlert error={escalate.error} message={ui.tickets.escalateFailed} />
      )}
      <Button variant="warning" onClick={() => setConfirming(true)}>
        Escalate
      </Button>
      <ConfirmDialog
        show={confirming}
        title="Escalate Ticket"
        confirmLabel="Escalate"
        variant="warning"
        busy={escalate.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => escalate.mutate(ticket._id, { onSettled: () => setConfirming(false) })}
      >
        {ui.tickets.confirmEscalate}
      </ConfirmDialog>
    </>
  );
}
