import type { ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { CreditsTrendRow, NameValueRow, TopUserRow } from '@herald/contract';
import './analytics-charts.css';

// The charts of the analytics screen. This module is the only one that imports the
// chart library, and the page loads it with React.lazy, so no other screen's bundle carries it.

/** Chart height. */
export const CHART_HEIGHT = 300;
/** The 'Credit Types Used' pie's five colours, reused in turn past the fifth. */
export const PIE_COLOURS = ['#0088FE', '#00C49F', '#FFBB28', '#FF8042', '#8884D8'] as const;
const ADDED = '#198754';
const REMOVED = '#dc3545';
const BAR = '#0d6efd';

function ChartCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <div className="col-12 col-xl-6">
      <section className="card h-100 shadow-sm" aria-labelledby={`${id}-title`} data-testid={id}>
        <div className="card-body">
          <h2 id={`${id}-title`} className="h6 mb-3">
            {title}
          </h2>
          <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
            {children}
          </ResponsiveContainer>
        </div>
      </section>
    </div>
  );
}

export interface AnalyticsChartsProps {
  trend: CreditsTrendRow[];
  creditTypes: NameValueRow[];
  topUsers: TopUserRow[];
  campaignTypes: NameValueRow[];
}

export default function AnalyticsCharts(props: AnalyticsChartsProps) {
  return (
    <div className="row g-3 mt-1">
      <ChartCard id="analytics-credit-trend" title="Credit Usage Trend">
        <BarChart data={props.trend}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="date" />
          <YAxis />
          <Tooltip />
          <Legend />
          <Bar dataKey="Added" fill={ADDED} />
          <Bar dataKey="Removed" fill={REMOVED} />
        </BarChart>
      </ChartCard>
      <ChartCard id="analytics-credit-types" title="Credit Types Used">
        <PieChart>
          <Pie data={props.creditTypes} dataKey="value" nameKey="name" outerRadius={100} label>
            {props.creditTypes.map((row, i) => (
              <Cell key={row.name} fill={PIE_COLOURS[i % PIE_COLOURS.length]} />
            ))}
          </Pie>
          <Tooltip />
          <Legend />
        </PieChart>
      </ChartCard>
      <ChartCard id="analytics-top-users" title="Top Users by Credit Usage">
        <BarChart data={props.topUsers} layout="vertical">
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis type="number" />
          <YAxis type="category" dataKey="name" width={150} />
          <Tooltip />
          <Bar dataKey="used" name="Credits Used" fill={BAR} />
        </BarChart>
      </ChartCard>
      <ChartCard id="analytics-campaign-types" title="Campaigns by Type">
        <BarChart data={props.campaignTypes} layout="vertical">
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis type="number" allowDecimals={false} />
          <YAxis type="category" dataKey="name" width={200} />
          <Tooltip />
          <Bar dataKey="value" name="Campaigns" fill={PIE_COLOURS[1]} />
        </BarChart>
      </ChartCard>
    </div>
  );
}
