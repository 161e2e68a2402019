import type { Role } from './roles.js';
import { CAMPAIGN_STATUSES, type CampaignStatus } from './statuses.js';

/**
 * Who may move a campaign between two statuses (docs/product.md, Campaigns). `admin` is
 * the Admin's Change Status; `owner` is anyone else who can see the campaign (its owner or a
 * manager above it); `system` is the server's own work, such as a delivery engine.
 */
export const TRANSITION_ACTORS = ['admin', 'owner', 'system'] as const;
export type TransitionActor = (typeof TRANSITION_ACTORS)[number];

/** Who may move from (row) to (column); a status has no cell for itself: staying put is no move. */
export type TransitionTable = Readonly<
  Record<CampaignStatus, Readonly<Partial<Record<CampaignStatus, readonly TransitionActor[]>>>>
>;

/** The owner may ask to cancel until the campaign is processed; the Admin then decides. */
const OWNER_MOVES: readonly (readonly [CampaignStatus, CampaignStatus])[] = [
  ['Submitted', 'Cancellation Requested'],
  ['Pending Approval', 'Cancellation Requested'],
  ['Approved', 'Cancellation Requested'],
];

/**
 * The delivery engine's moves: it takes an Approved campaign into Processing, ends it Completed
 * when every recipient is settled, then writes the report built from the delivery.
 */
const SYSTEM_MOVES: readonly (readonly [CampaignStatus, CampaignStatus])[] = [
  ['Approved', 'Processing'],
  ['Processing', 'Completed'],
  ['Completed', 'Report Generated'],
];

/**
 * Every move, from (row) to (column), with who may make it; an empty list means nobody. The
 * Admin may set any status from any other (no transition restriction for the Admin).
 */
export const CAMPAIGN_TRANSITIONS: TransitionTable = buildTable();

function buildTable(): TransitionTable {
  const has = (moves: typeof OWNER_MOVES, from: CampaignStatus, to: CampaignStatus) =>
    moves.some(([f, t]) => f === from && t === to);
  const table = {} as Record<CampaignStatus, Partial<Record<CampaignStatus, TransitionActor[]>>>;
  for (const from of CAMPAIGN_STATUSES) {
    const row: Partial<Record<CampaignStatus, TransitionActor[]>> = {};
    for (const to of CAMPAIGN_STATUSES) {
      if (to === from) continue;
      row[to] = ['admin'];
      if (has(OWNER_MOVES, from, to)) row[to].push('owner');
      if (has(SYSTEM_MOVES, from, to)) row[to].push('system');
    }
    table[from] = row;
  }
  return table;
}

/** Who may make the move (none when `from` equals `to`: staying put is no move). */
export function transitionActors(
  from: CampaignStatus,
  to: CampaignStatus,
): readonly TransitionActor[] {
  if (from === to) return [];
  return CAMPAIGN_TRANSITIONS[from][to] ?? [];
}

export function canTransition(
  from: CampaignStatus,
  to: CampaignStatus,
  by: TransitionActor,
): boolean {
  return transitionActors(from, to).includes(by);
}

/** The statuses `by` may move a campaign to from `from`, in the lifecycle's order. */
export function transitionTargets(from: CampaignStatus, by: TransitionActor): CampaignStatus[] {
  return CAMPAIGN_STATUSES.filter((to) => canTransition(from, to, by));
}

/** Whether `by` may move a campaign to `to` from at least one status. */
export function canEverMoveTo(to: CampaignStatus, by: TransitionActor): boolean {
  return CAMPAIGN_STATUSES.some((from) => canTransition(from, to, by));
}

/** A person's side of the table: the Admin, or anyone else who can see the campaign. */
export function transitionActorOf(role: Role): Exclude<TransitionActor, 'system'> {
  return role === 'Admin' ? 'admin' : 'owner';
}
