import { useState, type ReactNode } from 'react';
import { Alert, Button, ListGroup, Modal, Table } from 'react-bootstrap';
import {
  TICKET_STATUS_VARIANTS,
  ui,
  type SessionUser,
  type TicketAttachment,
  type TicketDetail,
} from '@herald/contract';
import { LoadingSpinner } from '../../components/loading-spinner';
import { StatusBadge } from '../../components/status-badge';
import { formatBytes, formatDateTime } from '../../lib/format';
import { downloadTicketAttachment } from '../../api/tickets/download-ticket-attachment';
import { useTicket } from '../../api/tickets/get-ticket';
import { FailureAlert } from './failure-alert';
import { EscalateButton, TicketAdminControls } from './ticket-admin-controls';
import { TicketConversation } from './ticket-conversation';
import { canEscalate } from './tickets-data';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <tr>
      <th scope="row" className="text-nowrap text-muted fw-normal w-25">
        {label}
      </th>
      <td className="text-break">{children}</td>
    </tr>
  );
}

function Attachments({ ticket }: { ticket: TicketDetail }) {
  const [failed, setFailed] = useState(false);
  const download = (a: TicketAttachment) => {
    setFailed(false);
    downloadTicketAttachment(ticket._id, a).catch(() => setFailed(true));
  };
  if (ticket.attachments.length === 0) return null;
  return (
    <section aria-label="Attachments" className="mb-3">
      <h3 className="h6">Attachments</h3>
      {failed && <Alert variant="danger">{ui.tickets.downloadFailed}</Alert>}
      <ListGroup>
        {ticket.attachments.map((a) => (
          <ListGroup.Item key={a.id} className="d-flex justify-content-between align-items-center">
            <span className="text-break">
              {a.name} <span className="text-muted small">({formatBytes(a.size)})</span>
            </span>
            <Button size="sm" variant="outline-secondary" onClick={() => download(a)}>
              Download
            </Button>
          </ListGroup.Item>
        ))}
      </ListGroup>
    </section>
  );
}

function DetailBody({ ticket, me }: { ticket: TicketDetail; me: SessionUser }) {
  return (
    <>
      <Table size="sm" className="mb-3">
        <tbody>
          <Field label="User">{ticket.userEmail}</Field>
          <Field label="Status">
            <StatusBadge label={ticket.status} variant={TICKET_STATUS_VARIANTS[ticket.status]} />
          </Field>
          <Field label="Assigned To">{ticket.assignedTo || 'Admin'}</Field>
          <Field label="Issue Type">{ticket.issueType}</Field>
          {ticket.relatedCampaign && (
            <Field label="Related Campaign">{ticket.relatedCampaign}</Field>
          )}
          {ticket.relatedUser && <Field label="Related User">{ticket.relatedUser}</Field>}
          {ticket.relatedTransaction && (
            <Field label="Related Transaction">#{ticket.relatedTransaction}</Field>
          )}
          <Field label="Last Updated">{formatDateTime(ticket.updatedAt)}</Field>
          <Field label="Description">
            <span style={{ whiteSpace: 'pre-wrap' }}>{ticket.description}</span>
          </Field>
        </tbody>
      </Table>
      <Attachments ticket={ticket} />
      {me.role === 'Admin' && <TicketAdminControls key={ticket.updatedAt} ticket={ticket} />}
      {canEscalate(me, ticket) && (
        <div className="mb-3">
          <EscalateButton ticket={ticket} />
        </div>
      )}
      {/* Keyed: the earlier replies it loaded belong to this ticket only. */}
      <TicketConversation key={ticket._id} ticket={ticket} />
    </>
  );
}

/** The ticket-detail modal. Every user text is rendered as text, never HTML. */
export function TicketDetailDialog(props: { id: string; me: SessionUser; onClose: () => void }) {
  const ticket = useTicket(props.id);
  return (
    <Modal
      show
      onHide={props.onClose}
      size="lg"
      centered
      scrollable
      aria-labelledby="ticket-detail-title"
    >
      <Modal.Header closeButton>
        <Modal.Title id="ticket-detail-title" as="h2" className="h5 text-break">
          {ticket.data ? `Ticket #${ticket.data.number}: ${ticket.data.subject}` : 'Ticket'}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {ticket.isError ? (
          <FailureAlert error={ticket.error} message={ui.tickets.loadFailed} />
        ) : ticket.data ? (
          <DetailBody ticket={ticket.data} me={props.me} />
        ) : (
          <LoadingSpinner label="Loading ticket..." />
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={props.onClose}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
