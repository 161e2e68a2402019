import { lazy, Suspense, useEffect, useState } from 'react';
import {
  ANALYTICS_RANGES,
  DEFAULT_ANALYTICS_RANGE,
  ui,
  type AnalyticsRange,
  type AnalyticsSummary,
} from '@herald/contract';
import { useAnalytics } from '../../api/analytics/get-analytics';
import { LoadingSpinner } from '../../components/loading-spinner';

// The chart library is fetched only when this screen shows its charts.
const loadCharts = () => import('./analytics-charts');
const AnalyticsCharts = lazy(loadCharts);

const RANGE_LABELS: Record<AnalyticsRange, string> = {
  '7': 'Last 7 days',
  '30': 'Last 30 days',
  '90': 'Last 90 days',
  all: 'All time',
};

interface CardDef {
  id: string;
  title: string;
  value: (s: AnalyticsSummary) => number;
}

/** The four summary cards (spec 2.12). */
const CARDS: CardDef[] = [
  { id: 'total-users', title: 'Total Users', value: (s) => s.users.total },
  { id: 'credits-added', title: 'Credits Added', value: (s) => s.credits.added },
  { id: 'credits-used', title: 'Credits Used', value: (s) => s.credits.removed },
  { id: 'total-campaigns', title: 'Total Campaigns', value: (s) => s.campaigns.total },
];

function SummaryCard({ def, summary }: { def: CardDef; summary: AnalyticsSummary | undefined }) {
  const id = `analytics-${def.id}`;
  return (
    <div className="col-12 col-sm-6 col-xl-3">
      <section className="card h-100 shadow-sm" aria-labelledby={`${id}-title`} data-testid={id}>
        <div className="card-body">
          <h2 id={`${id}-title`} className="h6 text-muted mb-2">
            {def.title}
          </h2>
          {summary === undefined ? (
            <div className="spinner-border spinner-border-sm text-secondary my-2" role="status">
              <span className="visually-hidden">Loading…</span>
            </div>
          ) : (
            <p className="fs-2 fw-semibold mb-0" data-testid={`${id}-value`}>
              {def.value(summary).toLocaleString()}
            </p>
          )}
        </div>
      </section>
    </div>
  );
}

/** Advanced Analytics (spec 2.12): the caller's scope (decisions 6), for a chosen date range. */
export function AnalyticsPage() {
  const [range, setRange] = useState<AnalyticsRange>(DEFAULT_ANALYTICS_RANGE);
  const data = useAnalytics(range);
  // Fetch the charts' chunk alongside the five calls, not after them.
  useEffect(() => {
    void loadCharts();
  }, []);
  const { trend, creditTypes, topUsers, campaignTypes } = data;
  const chartsReady = trend && creditTypes && topUsers && campaignTypes;

  return (
    <div>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-4">
        <h1 className="h3 mb-0">Advanced Analytics</h1>
        <select
          className="form-select w-auto"
          aria-label="Date range"
          data-testid="analytics-range"
          value={range}
          onChange={(e) => setRange(e.target.value as AnalyticsRange)}
        >
          {ANALYTICS_RANGES.map((r) => (
            <option key={r} value={r}>
              {RANGE_LABELS[r]}
            </option>
          ))}
        </select>
      </div>
      {data.isError && (
        <div className="alert alert-danger" role="alert">
          {ui.analytics.loadFailed}
        </div>
      )}
      <div className="row g-3">
        {CARDS.map((def) => (
          <SummaryCard key={def.id} def={def} summary={data.summary} />
        ))}
      </div>
      {chartsReady ? (
        <Suspense fallback={<LoadingSpinner />}>
          <AnalyticsCharts
            trend={trend}
            creditTypes={creditTypes}
            topUsers={topUsers}
            campaignTypes={campaignTypes}
          />
        </Suspense>
      ) : (
        !data.isError && <LoadingSpinner />
      )}
    </div>
  );
}
