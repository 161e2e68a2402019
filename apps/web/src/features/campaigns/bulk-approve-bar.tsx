import { Button, Spinner } from 'react-bootstrap';
import {
  BULK_APPROVE_MAX,
  server as msg,
  type BulkApproveReply,
  type Campaign,
} from '@herald/contract';
import { refusedLines } from './bulk-approve';
import type { Notice } from './use-campaign-actions';

/** The notice of one "Approve selected": the count, then each refusal with its reason. */
export function bulkApproveNotice(reply: BulkApproveReply, shown: readonly Campaign[]): Notice {
  if (reply.refusedCount === 0) return { variant: 'success', text: `✅ ${reply.message}` };
  return {
    variant: 'warning',
    text: (
      <>
        <div>{reply.message}</div>
        <ul className="small mb-0 mt-1" aria-label="Not approved">
          {refusedLines(reply, shown).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </>
    ),
  };
}

interface BulkApproveBarProps {
  count: number;
  busy: boolean;
  onApprove: () => void;
}

/**
 * The Admin's "Approve selected" for the ticked rows. The request lives with the page, which
 * outlives this bar: approved rows leave a filtered list, and the bar with them.
 */
export function BulkApproveBar({ count, busy, onApprove }: BulkApproveBarProps) {
  const tooMany = count > BULK_APPROVE_MAX;
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
      <Button variant="success" onClick={onApprove} disabled={count === 0 || tooMany || busy}>
        {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
        Approve selected ({count})
      </Button>
      {count === 0 && (
        <span className="small text-muted">
          Tick the campaigns awaiting approval to approve them together.
        </span>
      )}
      {tooMany && <span className="small text-danger">{msg.bulkApproveTooMany}</span>}
    </div>
  );
}
