import { memo } from 'react';
import { ProgressBar } from 'react-bootstrap';
import { ui, type DeliveryProgress } from '@herald/contract';
import { formatDateTime } from '../../../lib/format';

/** Share of recipients the engine is done with (sent or failed), 0-100. */
export function progressPercent(d: DeliveryProgress): number {
  if (d.total <= 0) return 0;
  return Math.min(100, Math.round(((d.sent + d.failed) / d.total) * 100));
}

/**
 * A campaign row's delivery: the progress bar ((sent + failed) / total), the
 * "sent / delivered / failed" counts and what the engine is doing. The row re-renders when the
 * list refetches (a live 'campaigns' event, or the 5 s poll while any row is Processing).
 */
export const DeliveryProgressCell = memo(function DeliveryProgressCell({
  delivery: d,
}: {
  delivery: DeliveryProgress | null;
}) {
  if (!d) return <span className="text-muted">-</span>;
  const percent = progressPercent(d);
  const state = d.dispatchState ? ui.delivery.dispatchLabels[d.dispatchState] : null;
  return (
    // Positioned, so the bar's visually hidden label (absolute) stays inside the table's
    // scrolling box instead of widening the page on a phone.
    <div className="position-relative" style={{ minWidth: '7.5rem' }}>
      <ProgressBar
        now={percent}
        // Read out, not drawn: a narrow bar has no room for it; the line below shows it.
        label={`${percent}%`}
        visuallyHidden
        variant={d.failed > 0 && d.sent === 0 ? 'danger' : 'success'}
        aria-label="Delivery progress"
        style={{ height: '0.9rem' }}
        animated={d.dispatchState === 'running'}
      />
      <div className="small mt-1" aria-label="Delivery counts">
        <span className="text-nowrap">
          <span className="text-success" title="Sent">
            {d.sent.toLocaleString()}
          </span>
          {' / '}
          <span className="text-primary" title="Delivered">
            {d.delivered.toLocaleString()}
          </span>
          {' / '}
          <span className="text-danger" title="Failed">
            {d.failed.toLocaleString()}
          </span>
        </span>{' '}
        <span className="text-muted text-nowrap">sent / delivered / failed</span>
      </div>
      {state && (
        <div className="small text-muted">
          <span>{state}</span> · {percent}%
          {d.dispatchState === 'waiting' &&
            d.resumeAt &&
            ` · ${ui.delivery.resumesAt(formatDateTime(d.resumeAt))}`}
        </div>
      )}
    </div>
  );
});
