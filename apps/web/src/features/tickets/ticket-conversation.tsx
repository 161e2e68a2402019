import { useState, type FormEvent } from 'react';
import { Button, Form, Spinner } from 'react-bootstrap';
import { ui, type TicketDetail } from '@herald/contract';
import { formatDateTime } from '../../lib/format';
import { FailureAlert } from './failure-alert';
import { useReplyTicket } from '../../api/tickets/reply-ticket';

/** The conversation (at most 300 px high, scrolls) and the reply box; blank replies not sent. */
export function TicketConversation({ ticket }: { ticket: TicketDetail }) {
  const [message, setMessage] = useState('');
  const reply = useReplyTicket();
  const blank = message.trim() === '';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (blank || reply.isPending) return;
    reply.mutate({ id: ticket._id, message: message.trim() }, { onSuccess: () => setMessage('') });
  };

  return (
    <section aria-label="Conversation">
      <h3 className="h6">Conversation</h3>
      <div
        className="border rounded bg-light p-2 mb-2"
        style={{ maxHeight: 300, overflowY: 'auto' }}
        data-testid="ticket-conversation"
        tabIndex={0}
      >
        {ticket.replies.length === 0 ? (
          <div className="text-muted small">No replies yet.</div>
        ) : (
          ticket.replies.map((r) => (
            <div key={r._id} className="mb-2 pb-2 border-bottom">
              <div className="small text-muted">
                <strong>{r.author}</strong> · {formatDateTime(r.createdAt)}
              </div>
              <div style={{ whiteSpace: 'pre-wrap' }} className="text-break">
                {r.message}
              </div>
            </div>
          ))
        )}
      </div>
      {reply.isError && <FailureAlert error={reply.error} message={ui.tickets.replyFailed} />}
      <Form onSubmit={onSubmit}>
        <Form.Group controlId="ticket-reply" className="mb-2">
          <Form.Label className="visually-hidden">Reply</Form.Label>
          <Form.Control
            as="textarea"
            rows={2}
            placeholder="Type your reply..."
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
        </Form.Group>
        <Button type="submit" size="sm" disabled={blank || reply.isPending}>
          {reply.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Send Reply
        </Button>
      </Form>
    </section>
  );
}
