import { z } from 'zod';

/**
 * Scheduled sends (docs/delivery.md, Scheduled sends): a campaign may carry a "Send at" time,
 * kept in UTC and shown in the viewer's time zone. Approved before that time, it stays
 * Approved ("Scheduled for …") until the job runner starts it at the time; approved after it,
 * it is sent at once. The form and the server check the same rule, SEND_AT's below.
 */

/** How far ahead a campaign may be scheduled at its creation. */
export const SEND_AT_MAX_DAYS = 90;
/** A time this little in the past still counts as "now" (the browser's and server's clocks). */
export const SEND_AT_SLACK_MS = 60_000;

const DAY_MS = 24 * 60 * 60 * 1000;

export const scheduleMessages = {
  sendAtInvalid: 'Send at must be a date and time.',
  sendAtPast: 'Send at must be in the future.',
  sendAtTooFar: `Send at must be at most ${SEND_AT_MAX_DAYS} days ahead.`,
  /** The owner's bell, when an Admin approves a campaign whose time has not come. */
  notifyCampaignApprovedScheduled: (campaign: { name: string }) =>
    `Your campaign '${campaign.name}' was approved and will be sent at its scheduled time.`,
  /** The owner's bell, when its time came and the campaign is being sent. */
  notifyCampaignScheduledSending: (campaign: { name: string }) =>
    `Your campaign '${campaign.name}' reached its scheduled time and is being sent.`,
} as const;

/** The screens' words for a campaign's "Send at" (create form, list, details). */
export const scheduleUi = {
  sendAtLabel: 'Send at (optional)',
  sendAtHint: (timeZone: string) =>
    `In your time zone, ${timeZone}. Leave empty to send as soon as it is approved; at most ${SEND_AT_MAX_DAYS} days ahead.`,
  /** The list's and details' line while an approved campaign waits for its time. */
  scheduledFor: (when: string) => `Scheduled for ${when}`,
  /** The details' row label, whatever the status. */
  detailsLabel: 'Send at',
  /** The create dialog's line, before confirming. */
  confirmLine: (when: string) => `It will be sent at ${when}, once approved.`,
} as const;

/** What is wrong with `sendAt` for a campaign created at `now` (ms since the epoch), if anything. */
export function sendAtProblem(sendAt: Date, now: number): string | null {
  const at = sendAt.getTime();
  if (Number.isNaN(at)) return scheduleMessages.sendAtInvalid;
  if (at < now - SEND_AT_SLACK_MS) return scheduleMessages.sendAtPast;
  if (at > now + SEND_AT_MAX_DAYS * DAY_MS) return scheduleMessages.sendAtTooFar;
  return null;
}

/**
 * A "Send at" as the create form and the public API send it: an ISO 8601 date and time with
 * its offset (`2026-12-24T18:00:00.000Z`), checked against the clock when parsed.
 */
export const SendAtSchema = z
  .string()
  .pipe(z.iso.datetime({ offset: true, error: scheduleMessages.sendAtInvalid }))
  .transform((raw, ctx) => {
    const at = new Date(raw);
    const problem = sendAtProblem(at, Date.now());
    if (problem === null) return at;
    ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  });

/**
 * Whether a campaign waits for its time: Approved with a "Send at" still ahead of `now`. The
 * screens show it as "Scheduled for …".
 */
export function isScheduledAhead(
  campaign: { status: string; sendAt: string | null },
  now: number,
): boolean {
  return (
    campaign.status === 'Approved' &&
    campaign.sendAt !== null &&
    new Date(campaign.sendAt).getTime() > now
  );
}
