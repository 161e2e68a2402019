import {
  server as msg,
  twoFactorMessages as m,
  type SecuritySettings,
  type SecuritySettingsReply,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import { badRequest, notFound } from '../../lib/app-error.js';
import type { Actor } from '../../policies/scope.js';
import {
  auditChanges,
  findAuditRetentionDays,
  recordAudit,
  setAuditRetentionDays,
  type AuditActor,
} from '../audit/index.js';
import { brandingFor } from '../branding/branding.service.js';
import * as repo from './two-factor.repo.js';

/**
 * What the Admin controls of two-factor sign-in: the platform-wide requirement for Admins and
 * Resellers, and resetting a user who lost both the phone and the recovery codes.
 */

export async function getSecuritySettings(ctx: AppContext): Promise<SecuritySettingsReply> {
  return {
    requireTwoFactor: await repo.findRequireTwoFactor(ctx.db),
    auditRetentionDays: await findAuditRetentionDays(ctx.db),
  };
}

/** A settings row as its audit entry compares it: the settings only, not the row's own fields. */
function securityFields(row: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (!row) return null;
  return Object.fromEntries(
    Object.entries(row).filter(([key]) => key !== 'id' && key !== 'updated_at'),
  );
}

/**
 * Sets the requirement. Every cached caller is forgotten on every instance, so those it holds
 * meet it on their next request. An Admin turns it on only with two-factor sign-in of their own,
 * so the setting never locks its own author into the enrolment.
 */
export async function setSecuritySettings(
  ctx: AppContext,
  actor: Actor,
  settings: SecuritySettings,
  auditActor: AuditActor,
): Promise<SecuritySettingsReply> {
  if (settings.requireTwoFactor) {
    const own = await repo.findTwoFactor(ctx.db, actor.id);
    if (!own?.two_factor_enabled_at) throw badRequest(m.settingNeedsOwn);
  }
  await ctx.db.transaction().execute(async (tx) => {
    // The whole row before and after: whichever setting the request changed is in the entry.
    const before = await repo.lockSecuritySettings(tx);
    await repo.setRequireTwoFactor(tx, settings.requireTwoFactor);
    // Audit retention (docs/audit.md, Retention): left out, the current one stays.
    if (settings.auditRetentionDays !== undefined) {
      await setAuditRetentionDays(tx, settings.auditRetentionDays);
    }
    await ctx.authState.changedAll(tx);
    const after = await repo.lockSecuritySettings(tx);
    const changes = auditChanges(securityFields(before), securityFields(after));
    // A save that changes nothing writes no entry.
    if (Object.keys(changes).length === 0) return;
    await recordAudit(tx, {
      actor: auditActor,
      action: 'security.update',
      target: { type: 'settings', id: null, label: 'Security', subjectUserId: null },
      changes,
    });
  });
  ctx.authState.forgetAll();
  return getSecuritySettings(ctx);
}

/**
 * Turns another user's two-factor sign-in off and ends their sessions and API keys (token
 * version); the user is told by mail. Where it is required, they must set it up again.
 */
export async function resetTwoFactor(
  ctx: AppContext,
  actor: Actor,
  targetId: string,
  auditActor: AuditActor,
): Promise<string> {
  if (targetId === actor.id) throw badRequest(m.resetSelf);
  const user = await repo.findTwoFactor(ctx.db, targetId);
  if (!user) throw notFound(msg.userNotFound);
  if (!user.two_factor_enabled_at) throw badRequest(m.resetNotOn);
  const company = (await brandingFor(ctx, user.id)).companyName;
  await ctx.db.transaction().execute(async (tx) => {
    await repo.disable(tx, user.id, true);
    await ctx.authState.changed(tx, user.id);
    await recordAudit(tx, {
      actor: auditActor,
      action: 'two_factor.reset',
      target: { type: 'user', id: user.id, label: user.email, subjectUserId: user.id },
    });
    await ctx.outbox.queue(tx, {
      to: user.email,
      fromName: company,
      subject: `Two-factor sign-in of your ${company} account was reset`,
      text:
        `Hello,\n\nAn administrator reset two-factor sign-in of your ${company} account, and ` +
        `your sessions ended. Log in with your password and set it up again on your profile.\n` +
        `If you did not ask for this, contact your administrator at once.\n`,
    });
  });
  ctx.authState.forget(user.id);
  return m.resetDone;
}
