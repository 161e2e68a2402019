import { ui, type CreditTypeCount, formatCount } from '@herald/contract';
import { SummaryCard } from '../../components/figure-card';

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
    <SummaryCard id={id} title={title} loading={counts === undefined}>
      {shown.length === 0 ? (
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
                <span className="fw-semibold text-nowrap">{formatCount(c.count)}</span>
              </li>
            ))}
          </ul>
          {counts && shown.length < counts.length && (
            <p className="small text-muted mb-0 mt-1">{ui.dashboard.otherTypesZero}</p>
          )}
        </>
      )}
    </SummaryCard>
  );
}
