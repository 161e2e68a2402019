import {
  isAuthenticatorCode,
  normalizeTwoFactorCode,
  twoFactorMessages as m,
  twoFactorRequiredFor,
  type RecoveryCodesReply,
  type TwoFactorSetupReply,
  type TwoFactorStatus,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { recordAudit, type AuditActor, type AuditEntry } from '../audit/index.js';
import { brandingFor } from '../branding/branding.service.js';
import { loginKeys } from '../auth/index.js';
import * as repo from './two-factor.repo.js';
import {
  matchingStep,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  qrCodeDataUrl,
  recoveryCodeHash,
} from './totp.js';

/** The secret box binds each sealed secret to its user's row and field. */
const secretContext = (userId: string) => `user:${userId}:twoFactorSecret`;
const pendingContext = (userId: string) => `user:${userId}:twoFactorPendingSecret`;

export async function twoFactorStatus(ctx: AppContext, user: AuthUser): Promise<TwoFactorStatus> {
  const required = twoFactorRequiredFor(user.role, await repo.findRequireTwoFactor(ctx.db));
  const row = await repo.findTwoFactor(ctx.db, user.id);
  if (!row) throw notFound(m.notOn);
  const enabled = row.two_factor_enabled_at !== null;
  const recoveryCodesLeft = enabled ? await repo.countRecoveryCodesLeft(ctx.db, user.id) : 0;
  return { enabled, recoveryCodesLeft, required };
}

/**
 * A new secret to scan, kept sealed as pending until a code of it confirms it (a second start
 * replaces the first). The app lists the account under the user's company name.
 */
export async function startSetup(ctx: AppContext, user: AuthUser): Promise<TwoFactorSetupReply> {
  const secret = newTotpSecret();
  const sealed = ctx.secretBox.seal(secret, pendingContext(user.id));
  const updated = await repo.setPendingSecret(ctx.db, user.id, sealed);
  if (Number(updated.numUpdatedRows) === 0) throw conflict(m.alreadyOn);
  const issuer = (await brandingFor(ctx, user.id)).companyName;
  const uri = otpauthUri(secret, issuer, user.email);
  return { secret, uri, qrCode: await qrCodeDataUrl(uri) };
}

/** The entry of a change to the user's own two-factor sign-in. */
const ownEntry = (
  actor: AuditActor,
  user: AuthUser,
  action: 'two_factor.enable' | 'two_factor.disable' | 'two_factor.recovery_codes',
): AuditEntry => ({
  actor,
  action,
  target: { type: 'user', id: user.id, label: user.email, subjectUserId: user.id },
});

/** Counts an attempt of the user's own against the login limits; `ok` gives it back. */
async function attempt<T>(ctx: AppContext, user: AuthUser, check: () => Promise<T>): Promise<T> {
  const keys = loginKeys(user.email, `user:${user.id}`);
  await ctx.rateLimiter.consume(keys);
  const result = await check();
  await ctx.rateLimiter.refund(keys.map(([key]) => key));
  return result;
}

async function storeNewRecoveryCodes(tx: DbOrTx, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await repo.replaceRecoveryCodes(tx, userId, codes.map(recoveryCodeHash));
  return codes;
}

/** Confirms the pending secret with its first code: two-factor sign-in is on from here. */
export async function confirmSetup(
  ctx: AppContext,
  user: AuthUser,
  code: string,
  auditActor: AuditActor,
): Promise<RecoveryCodesReply> {
  const recoveryCodes = await attempt(ctx, user, () =>
    ctx.db.transaction().execute(async (tx) => {
      const row = await repo.lockTwoFactor(tx, user.id);
      if (!row) throw notFound(m.notOn);
      if (row.two_factor_enabled_at) throw conflict(m.alreadyOn);
      if (!row.two_factor_pending_secret) throw badRequest(m.setupMissing);
      const secret = ctx.secretBox.open(row.two_factor_pending_secret, pendingContext(user.id));
      const step = matchingStep(secret, code);
      if (step === null) throw badRequest(m.codeWrong);
      await repo.enable(tx, user.id, ctx.secretBox.seal(secret, secretContext(user.id)), step);
      const codes = await storeNewRecoveryCodes(tx, user.id);
      await ctx.authState.changed(tx, user.id);
      await recordAudit(tx, ownEntry(auditActor, user, 'two_factor.enable'));
      return codes;
    }),
  );
  ctx.authState.forget(user.id);
  return { message: m.enabled, recoveryCodes };
}

/**
 * Checks a code of a user whose two-factor sign-in is on: six digits are an authenticator code,
 * taken once (its time step must be later than the last one accepted); anything else is a
 * recovery code, spent by its use. Throws 400 with the wrong or used code's message.
 */
export async function checkCode(
  ctx: AppContext,
  db: DbOrTx,
  user: { id: string; two_factor_secret: string | null },
  typed: string,
  allowRecovery = true,
): Promise<void> {
  if (!user.two_factor_secret) throw badRequest(m.notOn);
  const code = normalizeTwoFactorCode(typed);
  if (isAuthenticatorCode(code)) {
    const secret = ctx.secretBox.open(user.two_factor_secret, secretContext(user.id));
    const step = matchingStep(secret, code);
    if (step === null) throw badRequest(m.codeWrong);
    if (!(await repo.claimStep(db, user.id, step))) throw badRequest(m.codeUsed);
    return;
  }
  if (!allowRecovery || !(await repo.useRecoveryCode(db, user.id, recoveryCodeHash(code)))) {
    throw badRequest(m.codeWrong);
  }
}

/** Turns two-factor sign-in off: the password and a code (or a recovery code) prove it is you. */
export async function disableTwoFactor(
  ctx: AppContext,
  user: AuthUser,
  body: { password: string; code: string },
  auditActor: AuditActor,
): Promise<string> {
  if (twoFactorRequiredFor(user.role, await repo.findRequireTwoFactor(ctx.db))) {
    throw forbidden(m.cannotTurnOffRequired);
  }
  await attempt(ctx, user, async () => {
    const row = await repo.findTwoFactor(ctx.db, user.id);
    if (!row?.two_factor_enabled_at) throw badRequest(m.notOn);
    if (!(await ctx.hasher.verify(body.password, row.password_hash))) {
      throw badRequest(m.passwordWrong);
    }
    await ctx.db.transaction().execute(async (tx) => {
      await checkCode(ctx, tx, row, body.code);
      await repo.disable(tx, user.id, false);
      await ctx.authState.changed(tx, user.id);
      await recordAudit(tx, ownEntry(auditActor, user, 'two_factor.disable'));
    });
  });
  ctx.authState.forget(user.id);
  return m.disabled;
}

/** New recovery codes for an authenticator code; the old ones stop working. */
export async function regenerateRecoveryCodes(
  ctx: AppContext,
  user: AuthUser,
  code: string,
  auditActor: AuditActor,
): Promise<RecoveryCodesReply> {
  const recoveryCodes = await attempt(ctx, user, async () => {
    const row = await repo.findTwoFactor(ctx.db, user.id);
    if (!row?.two_factor_enabled_at) throw badRequest(m.notOn);
    return ctx.db.transaction().execute(async (tx) => {
      await checkCode(ctx, tx, row, code, false);
      const codes = await storeNewRecoveryCodes(tx, user.id);
      await recordAudit(tx, ownEntry(auditActor, user, 'two_factor.recovery_codes'));
      return codes;
    });
  });
  return { message: m.recoveryRegenerated, recoveryCodes };
}
