import type { ReactNode } from 'react';

/**
 * A summary card (dashboards, analytics): its title, then `children`, or a spinner while
 * `loading`. `id` names the card (`data-testid`).
 */
export function SummaryCard(props: {
  id: string;
  title: string;
  loading: boolean;
  children?: ReactNode;
}) {
  const { id, title, loading, children } = props;
  return (
    <div className="col-12 col-sm-6 col-xl-3">
      <section className="card h-100 shadow-sm" aria-labelledby={`${id}-title`} data-testid={id}>
        <div className="card-body">
          <h2 id={`${id}-title`} className="h6 text-muted mb-2">
            {title}
          </h2>
          {loading ? (
            <div className="spinner-border spinner-border-sm text-secondary my-2" role="status">
              <span className="visually-hidden">Loading…</span>
            </div>
          ) : (
            children
          )}
        </div>
      </section>
    </div>
  );
}

/**
 * A summary card of one figure: the value, or a spinner while `value` is undefined. Its value
 * is named `{id}-value`.
 */
export function FigureCard({ id, title, value }: { id: string; title: string; value: ReactNode }) {
  return (
    <SummaryCard id={id} title={title} loading={value === undefined}>
      <p className="fs-2 fw-semibold mb-0" data-testid={`${id}-value`}>
        {value}
      </p>
    </SummaryCard>
  );
}
