import { Link } from 'react-router';
import { AWAITING_APPROVAL_LINK, type Dashboard, formatCount } from '@herald/contract';
import { FigureCard } from '../../components/figure-card';

/**
 * The Admin's approval queue (docs/product.md, Campaigns): how many campaigns are Submitted or
 * Pending Approval, linking to the campaign list filtered to them.
 */
export function ApprovalQueueCard({ data }: { data: Dashboard }) {
  const count = data.awaitingApproval ?? 0;
  return (
    <FigureCard
      id="dashboard-awaiting-approval"
      title="Awaiting Approval"
      value={
        <Link
          to={AWAITING_APPROVAL_LINK}
          className="text-reset"
          aria-label={`Awaiting approval: ${formatCount(count)}, open the list`}
        >
          {formatCount(count)}
        </Link>
      }
    />
  );
}
