import {
  DELIVERY_STATES,
  type DeliveryBreakdown,
  type DeliveryProgress,
  type DeliveryState,
} from '@herald/contract';
import type { AppContext } from '../../../context.js';
import type { Actor } from '../../../policies/scope.js';
import { presentDelivery, visibleCampaign } from '../../campaigns/index.js';
import { stateGroups } from './delivery-read.repo.js';

type BreakdownState = DeliveryState | 'unsent';
const ORDER: readonly BreakdownState[] = ['unsent', ...DELIVERY_STATES];

/**
 * GET /api/campaigns/{id}/delivery: the details dialog's breakdown, for whoever may see the
 * campaign (404 otherwise, as GET /api/campaigns/{id}). Progress comes from the row's counters;
 * states and errors from the recipients themselves, the source of truth. A campaign the engine
 * never touched has nothing to break down (its recipients were never claimed).
 */
export async function campaignDelivery(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<DeliveryBreakdown> {
  const row = await visibleCampaign(ctx.db, actor, id);
  const progress: DeliveryProgress = presentDelivery(row) ?? {
    dispatchState: null,
    simulated: false,
    total: row.recipient_count,
    sent: 0,
    delivered: 0,
    read: 0,
    failed: 0,
    refunded: 0,
    resumeAt: null,
    quietHold: false,
  };
  if (progress.dispatchState === null) return { progress, states: [], errors: [] };

  const groups = await stateGroups(ctx.db, id);
  const counts = new Map<BreakdownState, number>();
  const errors: DeliveryBreakdown['errors'] = [];
  for (const g of groups) {
    if (g.error_code === null) counts.set(g.state ?? 'unsent', g.count);
    else errors.push({ code: g.error_code, text: g.error_text ?? '', count: g.count });
  }
  const states = ORDER.filter((s) => counts.has(s)).map((state) => ({
    state,
    count: counts.get(state) ?? 0,
  }));
  return { progress, states, errors };
}
