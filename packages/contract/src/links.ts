import { AWAITING_APPROVAL_FILTER } from './statuses.js';

/**
 * Paths, web routes and list sizes that the signed-in shell (menu, bell, live stream, dashboard)
 * needs at once. They live apart from the zod schemas on purpose: a constant taken from a
 * schema module brings that module's schemas, and zod, into the first load of every screen
 * (docs/performance.md, Page speed).
 */

/** The live stream's path: Server-Sent Events, authenticated by the bearer header like any route. */
export const LIVE_PATH = '/api/live';
/** What the live stream says: which list changed, never its content (the page reloads it). */
export const LIVE_EVENT_KINDS = ['notifications', 'announcements', 'campaigns'] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];
export interface LiveEvent {
  kind: LiveEventKind;
}

/** A live event's data, checked without a schema library: `{ "kind": <one of the kinds> }`. */
export function liveEventKind(value: unknown): LiveEventKind | null {
  if (typeof value !== 'object' || value === null || !('kind' in value)) return null;
  const { kind } = value;
  return (LIVE_EVENT_KINDS as readonly unknown[]).includes(kind) ? (kind as LiveEventKind) : null;
}

export const NOTIFICATION_LIST_DEFAULT = 50;
export const ANNOUNCEMENT_LIST_DEFAULT = 50;
export const CAMPAIGN_LIST_DEFAULT = 100;

/** The web route of the campaign list filtered to the approval queue (bell and dashboard). */
export const AWAITING_APPROVAL_LINK = `/campaigns?status=${encodeURIComponent(AWAITING_APPROVAL_FILTER)}`;

/**
 * The web route that opens one campaign's details over the campaign list (a notification's
 * deep link); the list page reads `open`.
 */
export const CAMPAIGN_OPEN_PARAM = 'open';
export const campaignLink = (campaignId: string) =>
  `/campaigns?${CAMPAIGN_OPEN_PARAM}=${encodeURIComponent(campaignId)}`;

/** The web route of the API & Webhooks screen (a disabled endpoint's notification links to it). */
export const WEBHOOKS_LINK = '/api-keys';
