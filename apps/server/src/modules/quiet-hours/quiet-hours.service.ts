import {
  QUIET_HOURS_DEFAULT,
  quietHoursMessages,
  quietMinutes,
  quietTime,
  type QuietHours,
  type QuietHoursBody,
  type QuietWindow,
} from '@herald/contract';
import type { Db, DbOrTx } from '../../db/database.js';
import { badRequest, notFound } from '../../lib/app-error.js';
import {
  campaignOwner,
  captureCampaignQuietHours,
  findEffectiveQuietHours,
  findOwnQuietHours,
  writeOwnQuietHours,
  type QuietRow,
} from './quiet-hours.repo.js';

/**
 * Quiet hours per account (docs/product.md, Quiet hours): an account's own window, else its
 * nearest ancestor's, else the Admin default QUIET_HOURS_DEFAULT. Windows are kept as minutes
 * after local midnight; the API speaks "HH:MM".
 */

/** A window in minutes after local midnight; start > end wraps midnight. */
export interface QuietMinutes {
  start: number;
  end: number;
}

const DEFAULT_MINUTES: QuietMinutes = {
  start: quietMinutes(QUIET_HOURS_DEFAULT.start),
  end: quietMinutes(QUIET_HOURS_DEFAULT.end),
};

function toWindow(m: QuietMinutes): QuietWindow {
  return { start: quietTime(m.start), end: quietTime(m.end) };
}

function ownOf(row: QuietRow): QuietMinutes | null {
  return row.quiet_start === null || row.quiet_end === null
    ? null
    : { start: row.quiet_start, end: row.quiet_end };
}

/** The window in force for a user's campaigns: its own, its nearest ancestor's, the default. */
export async function effectiveQuietMinutes(db: DbOrTx, userId: string): Promise<QuietMinutes> {
  const row = await findEffectiveQuietHours(db, userId);
  return (row && ownOf(row)) ?? DEFAULT_MINUTES;
}

export async function getQuietHours(db: Db, userId: string): Promise<QuietHours> {
  const own = await findOwnQuietHours(db, userId);
  if (!own) throw notFound();
  const mine = ownOf(own);
  return {
    own: mine && toWindow(mine),
    effective: toWindow(await effectiveQuietMinutes(db, userId)),
    canInherit: own.role !== 'Admin',
  };
}

/**
 * Sets the caller's own window, or (both null) removes it so the inherited one applies. The
 * Admin's is the last fallback: it can be changed, not removed.
 */
export async function setQuietHours(
  db: Db,
  userId: string,
  body: QuietHoursBody,
): Promise<QuietHours & { message: string }> {
  const own = await findOwnQuietHours(db, userId);
  if (!own) throw notFound();
  if (body.start === null || body.end === null) {
    if (own.role === 'Admin') throw badRequest(quietHoursMessages.adminCannotInherit);
    await writeOwnQuietHours(db, userId, { quiet_start: null, quiet_end: null });
    return { ...(await getQuietHours(db, userId)), message: quietHoursMessages.inherited };
  }
  await writeOwnQuietHours(db, userId, {
    quiet_start: quietMinutes(body.start),
    quiet_end: quietMinutes(body.end),
  });
  return { ...(await getQuietHours(db, userId)), message: quietHoursMessages.saved };
}

/**
 * Captures the owner's effective window on a campaign as the engine starts it (docs/delivery.md,
 * Quiet hours): a later change of the setting does not move a campaign already sending. With
 * quiet hours switched off for the server (DELIVERY_QUIET_HOURS=off, tests only) it records none.
 */
export async function captureQuietHours(
  db: DbOrTx,
  campaignId: string,
  enabled: boolean,
): Promise<void> {
  const ownerId = enabled ? await campaignOwner(db, campaignId) : undefined;
  if (ownerId === undefined) {
    await captureCampaignQuietHours(db, campaignId, { quiet_start: null, quiet_end: null });
    return;
  }
  const w = await effectiveQuietMinutes(db, ownerId);
  await captureCampaignQuietHours(db, campaignId, { quiet_start: w.start, quiet_end: w.end });
}
