import { Button, Spinner } from 'react-bootstrap';
import { ui, type BulkApproveReply, type Campaign } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { useApproveCampaigns } from '../../api/campaigns/approve-campaigns';
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
  selected: ReadonlySet<string>;
  /** The campaigns loaded now, to name the refused ones. */
  shown: readonly Campaign[];
  onDone: (notice: Notice) => void;
}

/** The Admin's "Approve selected": one request for the checked rows, each outcome reported. */
export function BulkApproveBar({ selected, shown, onDone }: BulkApproveBarProps) {
  const approve = useApproveCampaigns();
  const count = selected.size;
  const run = () =>
    approve.mutate([...selected], {
      onSuccess: (reply) => onDone(bulkApproveNotice(reply, shown)),
      onError: (err) =>
        onDone({ variant: 'danger', text: errorMessage(err, ui.campaigns.bulkApproveFailed) }),
    });
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
      <Button variant="success" onClick={run} disabled={count === 0 || approve.isPending}>
        {approve.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
        Approve selected ({count})
      </Button>
      <span className="small text-muted">
        {count === 0 ? 'Tick the campaigns awaiting approval to approve them together.' : ''}
      </span>
    </div>
  );
}
