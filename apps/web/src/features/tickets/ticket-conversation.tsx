import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Form, Spinner } from 'react-bootstrap';
import { ui, type TicketDetail } from '@herald/contract';
import { formatDateTime } from '../../lib/format';
import { FailureAlert } from './failure-alert';
import { useReplyTicket } from '../../api/tickets/reply-ticket';
import { useConversation } from './use-conversation';

/**
 * The conversation (at most 300 px high, scrolls) and the reply box; blank replies not sent. It
 * shows the newest page of replies; "Show earlier replies" at its top loads older ones above and
 * moves the focus (and the view) to the first of them, so a keyboard user reads on from there.
 */
export function TicketConversation({ ticket }: { ticket: TicketDetail }) {
  const [message, setMessage] = useState('');
  const reply = useReplyTicket();
  const blank = message.trim() === '';
  const { replies, hasEarlier, loadEarlier, earlier } = useConversation(ticket);
  const box = useRef<HTMLDivElement>(null);
  const [focusId, setFocusId] = useState<string | undefined>(undefined);

  useEffect(() => {
    if (!focusId) return;
    box.current?.querySelector<HTMLElement>(`[data-reply-id="${focusId}"]`)?.focus();
  }, [focusId]);

  const showEarlier = () => {
    if (earlier.isPending) return;
    loadEarlier()
      .then(setFocusId)
      .catch(() => undefined); // shown by the alert from the mutation's state
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (blank || reply.isPending) return;
    reply.mutate({ id: ticket._id, message: message.trim() }, { onSuccess: () => setMessage('') });
  };

  return (
    <section aria-label="Conversation">
      <h3 className="h6">Conversation</h3>
      {earlier.isError && (
        <FailureAlert error={earlier.error} message={ui.tickets.earlierRepliesFailed} />
      )}
      <div
        ref={box}
        className="border rounded bg-light p-2 mb-2"
        style={{ maxHeight: 300, overflowY: 'auto' }}
        data-testid="ticket-conversation"
        tabIndex={0}
      >
        {hasEarlier && (
          <div className="text-center mb-2">
            <Button
              size="sm"
              variant="outline-secondary"
              onClick={showEarlier}
              disabled={earlier.isPending}
            >
              {earlier.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              {ui.tickets.showEarlierReplies}
            </Button>
          </div>
        )}
        {replies.length === 0 ? (
          <div className="text-muted small">No replies yet.</div>
        ) : (
          replies.map((r) => (
            <div
              key={r._id}
              className="mb-2 pb-2 border-bottom"
              data-reply-id={r._id}
              tabIndex={-1}
            >
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
