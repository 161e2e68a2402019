import type { ReactNode } from 'react';

/**
 * A summary card of one figure (dashboards, analytics): its title, then the value, or a spinner
 * while `value` is undefined. `id` names the card (`data-testid`) and its value (`{id}-value`).
 */
export function FigureCard({ id, title, value }: { id: string; title: string; value: ReactNode }) {
  return (
    <div className="col-12 col-sm-6 col-xl-3">
      <section className="card h-100 shadow-sm" aria-labelledby={`${id}-title`} data-testid={id}>
        <div className="card-body">
          <h2 id={`${id}-title`} className="h6 text-muted mb-2">
            {title}
          </h2>
          {value === undefined ? (
            <div className="spinner-border spinner-border-sm text-secondary my-2" role="status">
              <span className="visually-hidden">Loading…</span>
            </div>
          ) : (
            <p className="fs-2 fw-semibold mb-0" data-testid={`${id}-value`}>
              {value}
            </p>
          )}
        </div>
      </section>
    </div>
  );
}
