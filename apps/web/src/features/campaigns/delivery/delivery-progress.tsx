import { memo } from 'react';
import {
  campaignResults,
  ui,
  type Campaign,
  type CampaignResults,
  type DeliveryProgress,
  formatCount,
} from '@herald/contract';
import { ProgressMeter } from '../../../components/progress-meter';
import { formatDateTime } from '../../../lib/format';

/** Share of recipients the engine is done with (sent or failed), 0-100. */
export function progressPercent(d: DeliveryProgress): number {
  if (d.total <= 0) return 0;
  return Math.min(100, Math.round(((d.sent + d.failed) / d.total) * 100));
}

/**
 * The results line every screen shows alike (docs/product.md, Campaigns, "Results"):
 * "27 delivered · 3 failed of 30", then read and pending when known.
 */
export function ResultsLine({ results: r }: { results: CampaignResults }) {
  const t = ui.delivery.results;
  return (
    <div className="small mt-1" aria-label={t.label}>
      <span className="text-nowrap">
        <span className="text-success fw-semibold">{formatCount(r.delivered)}</span> {t.delivered}
      </span>
      {' · '}
      <span className="text-nowrap">
        <span className="text-danger fw-semibold">{formatCount(r.failed)}</span> {t.failed}
      </span>{' '}
      <span className="text-muted text-nowrap">{t.of(formatCount(r.total))}</span>
      {(r.read !== null || r.pending > 0) && (
        <div className="text-muted">
          {r.read !== null && <span className="text-nowrap">{t.read(formatCount(r.read))}</span>}
          {r.read !== null && r.pending > 0 && ' · '}
          {r.pending > 0 && (
            <span className="text-nowrap">{t.pending(formatCount(r.pending))}</span>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * A campaign's delivery: the engine's progress bar ((sent + failed) / total) while it has one,
 * the results line, and what the engine is doing. The row re-renders when the list refetches
 * (a live 'campaigns' event, or the 5 s poll while any row is Processing).
 */
/**
 * The sending's state as the row says it; waiting because every recipient left is in quiet
 * hours says so (docs/product.md, Quiet hours).
 */
export function dispatchLabel(d: DeliveryProgress): string | null {
  if (d.quietHold) return ui.delivery.quietHold;
  return d.dispatchState ? ui.delivery.dispatchLabels[d.dispatchState] : null;
}

export const DeliveryProgressCell = memo(function DeliveryProgressCell({
  campaign,
}: {
  campaign: Pick<Campaign, 'reportCount' | 'reportDelivered' | 'delivery'>;
}) {
  const results = campaignResults(campaign);
  const d = campaign.delivery;
  if (!results) return <span className="text-muted">-</span>;
  const percent = d ? progressPercent(d) : 100;
  const state = d ? dispatchLabel(d) : null;
  return (
    <div style={{ minWidth: '7.5rem' }}>
      {d && (
        // The percentage is read out from the bar's value; the line below shows it.
        <ProgressMeter
          now={percent}
          label={ui.delivery.progressLabel}
          variant={d.failed > 0 && d.sent === 0 ? 'danger' : 'success'}
          style={{ height: '0.9rem' }}
          animated={d.dispatchState === 'running'}
        />
      )}
      <ResultsLine results={results} />
      {state && d && (
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
