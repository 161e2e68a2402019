import { ui, type CreditTypeCount } from '@herald/contract';

interface CreditTypesCardProps {
  /** Names the card (`data-testid`), its list (`{id}-value`) and each row (`{id}-type`). */
  id: string;
  title: string;
  /** Every credit type's figure; undefined while loading. */
  counts: CreditTypeCount[] | undefined;
}

/**
 * A dashboard card of one credit figure per type (docs/product.md, Dashboards and analytics):
 * credits of different types cannot be swapped, so they are never summed. Types at 0 are left
 * out and the card says so under the list; with every type at 0 it says 0 of any type.
 */
export function CreditTypesCard({ id, title, counts }: CreditTypesCardProps) {
  const shown = counts?.filter((c) => c.count !== 0) ?? [];
  return (
    <div className="col-12 col-sm-6 col-xl-3">
      <section className="card h-100 shadow-sm" aria-labelledby={`${id}-title`} data-testid={id}>
        <div className="card-body">
          <h2 id={`${id}-title`} className="h6 text-muted mb-2">
            {title}
          </h2>
          {counts === undefined ? (
            <div className="spinner-border spinner-border-sm text-secondary my-2" role="status">
              <span className="visually-hidden">Loading…</span>
            </div>
          ) : shown.length === 0 ? (
            <div data-testid={`${id}-value`}>
              <p className="fs-2 fw-semibold mb-0">0</p>
              <p className="small text-muted mb-0">{ui.dashboard.noCredits}</p>
            </div>
          ) : (
            <>
              <ul className="list-unstyled mb-0" data-testid={`${id}-value`}>
                {shown.map((c) => (
                  <li
                    key={c.creditType}
                    className="d-flex justify-content-between align-items-start gap-2 py-1 border-bottom"
                    data-testid={`${id}-type`}
                  >
                    <span className="small">{c.creditType}</span>
                    <span className="fw-semibold text-nowrap">{c.count.toLocaleString()}</span>
                  </li>
                ))}
              </ul>
              {shown.length < counts.length && (
                <p className="small text-muted mb-0 mt-1">{ui.dashboard.otherTypesZero}</p>
              )}
            </>
          )}
        </div>
      </section>
    </div>
  );
}
