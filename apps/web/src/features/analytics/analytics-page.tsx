import { lazy, Suspense, useEffect, useState } from 'react';
import {
  ANALYTICS_RANGES,
  DEFAULT_ANALYTICS_RANGE,
  ui,
  type AnalyticsRange,
  type AnalyticsSummary,
  formatCount,
} from '@herald/contract';
import { useAnalytics } from '../../api/analytics/get-analytics';
import { FigureCard } from '../../components/figure-card';
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

/**
 * The summary cards: Credits Used is what campaigns spent (net of refunds), Credits Distributed
 * what was handed down the tree (docs/product.md, Dashboards and analytics).
 */
const CARDS: CardDef[] = [
  { id: 'total-users', title: 'Total Users', value: (s) => s.users.total },
  { id: 'credits-added', title: 'Credits Added', value: (s) => s.credits.added },
  { id: 'credits-used', title: 'Credits Used', value: (s) => s.credits.used },
  {
    id: 'credits-distributed',
    title: 'Credits Distributed',
    value: (s) => s.credits.distributed,
  },
  { id: 'total-campaigns', title: 'Total Campaigns', value: (s) => s.campaigns.total },
];

/** Advanced Analytics: the caller's scope (docs/product.md, Decisions), for a chosen date range. */
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
          <FigureCard
            key={def.id}
            id={`analytics-${def.id}`}
            title={def.title}
            value={data.summary && formatCount(def.value(data.summary))}
          />
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
