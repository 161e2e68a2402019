import { ui, type CreditType, formatCount } from '@herald/contract';
import { type Cost } from './create-form-logic';

/** Under the recipient count: what the campaign uses of the owner's balance of its type. */
export function CostLine({ cost, type }: { cost: Cost | null; type: CreditType }) {
  if (!cost || cost.short > 0) return null;
  return (
    <div className="small text-muted" data-testid="campaign-cost">
      {ui.campaigns.costLine(formatCount(cost.count), type, formatCount(cost.left))}
    </div>
  );
}

/** Beside the insufficient-credits message: how many are needed and how many there are. */
export function shortfallText(cost: Cost | null): string | null {
  if (!cost || cost.short === 0) return null;
  return ui.campaigns.shortfall(formatCount(cost.count), formatCount(cost.available));
}
