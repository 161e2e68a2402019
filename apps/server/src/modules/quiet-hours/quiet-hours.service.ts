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
import { auditChanges, recordAudit, type AuditActor } from '../audit/index.js';
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

/** A window as its audit entry shows it: "21:00-08:00", or null for the inherited one. */
function windowText(row: QuietRow): string | null {
  const own = ownOf(row);
  return own && `${quietTime(own.start)}-${quietTime(own.end)}`;
}

/**
 * Sets the caller's own window, or (both null) removes it so the inherited one applies. The
 * Admin's is the last fallback: it can be changed, not removed. A change writes its audit entry
 * in the same transaction (docs/audit.md); a save that changes nothing writes none.
 */
export async function setQuietHours(
  db: Db,
  userId: string,
  body: QuietHoursBody,
  auditActor: AuditActor,
): Promise<QuietHours & { message: string }> {
  const inherit = body.start === null || body.end === null;
  const next: QuietRow =
    body.start === null || body.end === null
      ? { quiet_start: null, quiet_end: null }
      : { quiet_start: quietMinutes(body.start), quiet_end: quietMinutes(body.end) };
  await db.transaction().execute(async (tx) => {
    const own = await findOwnQuietHours(tx, userId, true);
    if (!own) throw notFound();
    if (inherit && own.role === 'Admin') throw badRequest(quietHoursMessages.adminCannotInherit);
    await writeOwnQuietHours(tx, userId, next);
    const changes = auditChanges({ quietHours: windowText(own) }, { quietHours: windowText(next) });
    if (Object.keys(changes).length === 0) return;
    await recordAudit(tx, {
      actor: auditActor,
      action: 'quiet_hours.update',
      target: { type: 'settings', id: userId, label: own.email, subjectUserId: userId },
      changes,
    });
  });
  const message = inherit ? quietHoursMessages.inherited : quietHoursMessages.saved;
  return { ...(await getQuietHours(db, userId)), message };
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
