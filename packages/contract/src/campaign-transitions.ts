import type { Role } from './roles.js';
import { CAMPAIGN_STATUSES, type CampaignStatus } from './statuses.js';

/**
 * Who may move a campaign between two statuses (spec 4; decisions.md section 4). `admin` is
 * the Admin's Change Status; `owner` is anyone else who can see the campaign (its owner or a
 * manager above it); `system` is the server's own work, such as a delivery engine.
 */
export const TRANSITION_ACTORS = ['admin', 'owner', 'system'] as const;
export type TransitionActor = (typeof TRANSITION_ACTORS)[number];

export type TransitionTable = {
  readonly [From in CampaignStatus]: {
    readonly [To in Exclude<CampaignStatus, From>]: readonly TransitionActor[];
  };
};

const A = ['admin'] as const;
/** The owner may ask to cancel until the campaign is processed; the Admin then decides. */
const AO = ['admin', 'owner'] as const;

/**
 * Every move, from (row) to (column), with who may make it; an empty list means nobody. The
 * Admin may set any status from any other (spec 4: no transition restriction for the Admin).
 */
export const CAMPAIGN_TRANSITIONS: TransitionTable = {
  Submitted: {
    'Pending Approval': A,
    Approved: A,
    Processing: A,
    Completed: A,
    Rejected: A,
    'Report Generated': A,
    'Cancellation Requested': AO,
    Cancelled: A,
  },
  'Pending Approval': {
    Submitted: A,
    Approved: A,
    Processing: A,
    Completed: A,
    Rejected: A,
    'Report Generated': A,
    'Cancellation Requested': AO,
    Cancelled: A,
  },
  Approved: {
    Submitted: A,
    'Pending Approval': A,
    Processing: A,
    Completed: A,
    Rejected: A,
    'Report Generated': A,
    'Cancellation Requested': AO,
    Cancelled: A,
  },
  Processing: {
    Submitted: A,
    'Pending Approval': A,
    Approved: A,
    Completed: A,
    Rejected: A,
    'Report Generated': A,
    'Cancellation Requested': A,
    Cancelled: A,
  },
  Completed: {
    Submitted: A,
    'Pending Approval': A,
    Approved: A,
    Processing: A,
    Rejected: A,
    'Report Generated': A,
    'Cancellation Requested': A,
    Cancelled: A,
  },
  Rejected: {
    Submitted: A,
    'Pending Approval': A,
    Approved: A,
    Processing: A,
    Completed: A,
    'Report Generated': A,
    'Cancellation Requested': A,
    Cancelled: A,
  },
  'Report Generated': {
    Submitted: A,
    'Pending Approval': A,
    Approved: A,
    Processing: A,
    Completed: A,
    Rejected: A,
    'Cancellation Requested': A,
    Cancelled: A,
  },
  'Cancellation Requested': {
    Submitted: A,
    'Pending Approval': A,
    Approved: A,
    Processing: A,
    Completed: A,
    Rejected: A,
    'Report Generated': A,
    Cancelled: A,
  },
  Cancelled: {
    Submitted: A,
    'Pending Approval': A,
    Approved: A,
    Processing: A,
    Completed: A,
    Rejected: A,
    'Report Generated': A,
    'Cancellation Requested': A,
  },
};

/** Who may make the move (none when `from` equals `to`: staying put is no move). */
export function transitionActors(
  from: CampaignStatus,
  to: CampaignStatus,
): readonly TransitionActor[] {
  if (from === to) return [];
  const row: Partial<Record<CampaignStatus, readonly TransitionActor[]>> =
    CAMPAIGN_TRANSITIONS[from];
  return row[to] ?? [];
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
