import { isScheduledAhead, scheduleUi, type Campaign } from '@herald/contract';
import { formatSendAt } from '../../lib/send-at';

/**
 * "Scheduled for …" under an approved campaign's status while its "Send at" is ahead, in the
 * viewer's time zone (docs/delivery.md, Scheduled sends); nothing otherwise.
 */
export function ScheduledFor({ campaign }: { campaign: Pick<Campaign, 'status' | 'sendAt'> }) {
  if (campaign.sendAt === null || !isScheduledAhead(campaign, Date.now())) return null;
  return (
    <div className="small text-muted mt-1" data-testid="campaign-scheduled-for">
      {scheduleUi.scheduledFor(formatSendAt(campaign.sendAt))}
    </div>
  );
}
