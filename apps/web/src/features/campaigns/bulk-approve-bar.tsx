import { Button, Spinner } from 'react-bootstrap';
import type { BulkApproveReply, Campaign } from '@herald/contract';
import type { Notice } from './use-campaign-actions';

/** The notice of one "Approve selected": the count, then each refusal with its reason. */
export function bulkApproveNotice(reply: BulkApproveReply, shown: readonly Campaign[]): Notice {
  if (reply.refusedCount === 0) return { variant: 'success', text: `✅ ${reply.message}` };
  const byId = new Map(shown.map((c) => [c._id, c]));
  return {
    variant: 'warning',
    text: (
      <>
        <div>{reply.message}</div>
        <ul className="small mb-0 mt-1 ps-3" aria-label="Not approved">
          {reply.results.map((r) =>
            r.approved ? null : (
              <li key={r.id}>
                {byId.get(r.id)?.userName ?? r.id.slice(0, 8)} ({r.id.slice(0, 8)}): {r.message}
              </li>
            ),
          )}
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
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
      <Button variant="success" onClick={onApprove} disabled={count === 0 || busy}>
        {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
        Approve selected ({count})
      </Button>
      {count === 0 && (
        <span className="small text-muted">
          Tick the campaigns awaiting approval to approve them together.
        </span>
      )}
    </div>
  );
}
