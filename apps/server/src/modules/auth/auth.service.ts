import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  OTP_LENGTH,
  OTP_MAX_ATTEMPTS,
  OTP_TTL_MINUTES,
  RATE_LIMITS,
  server as msg,
  twoFactorMessages,
  twoFactorRequiredFor,
  type LoginAnswer,
  type LoginReply,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { AppError, badRequest, notFound } from '../../lib/app-error.js';
import type { MailMessage } from '../../lib/mail.js';
import type { Actor } from '../../policies/scope.js';
import { recordAudit, type AuditActor } from '../audit/index.js';
import { brandingFor } from '../branding/branding.service.js';
import {
  checkCode,
  findRequireTwoFactor,
  issueChallenge,
  readChallenge,
} from '../two-factor/index.js';
import * as repo from './auth.repo.js';
import {
  recordFailedSignIn,
  recordSignIn,
  userTarget,
  type Claimant,
  type Credentials,
} from './auth-audit.js';
import { loginKeys, type LoginKeys } from './login-keys.js';
import { deleteSpentSetupTokens } from './set-password.repo.js';

/** A session for the user: its token and the user as the browser keeps it. */
async function sessionFor(ctx: AppContext, user: Credentials): Promise<LoginReply> {
  const twoFactorEnabled = user.two_factor_enabled_at !== null;
  const required = twoFactorRequiredFor(user.role, await findRequireTwoFactor(ctx.db));
  return {
    token: ctx.tokens.issue(user.id, user.token_version),
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      status: user.status,
      createdAt: user.created_at.toISOString(),
      mustChangePassword: user.must_change_password,
      twoFactorEnabled,
      mustEnrolTwoFactor: required && !twoFactorEnabled,
    },
  };
}

/** A success gives the attempt back: the pair's counter is cleared, the shared ones refunded. */
async function loginSucceeded(ctx: AppContext, keys: LoginKeys): Promise<void> {
  const [pair, ...shared] = keys.map(([key]) => key);
  await ctx.rateLimiter.reset([pair!]);
  await ctx.rateLimiter.refund(shared);
}

/**
 * Stores the password at the current cost. The bounded hasher may refuse with 503 when busy: the
 * password was already verified, so the login goes on with the old hash, rehashed on a later one.
 */
async function rehash(ctx: AppContext, userId: string, password: string): Promise<void> {
  let hash: string;
  try {
    hash = await ctx.hasher.hash(password);
  } catch (err) {
    if (err instanceof AppError && err.status === 503) return;
    throw err;
  }
  await repo.rehashPassword(ctx.db, userId, hash);
}

/**
 * A login the full hash queue could not take is refused first, before any database work. Every
 * attempt is counted before the hash (so a burst sent at once cannot outrun the count);
 * a successful one is given back, so only failures use up the limits. A blocked account answers
 * exactly as a wrong password does: a different answer for the right password would confirm it.
 * With two-factor sign-in on, the answer is a short-lived challenge, not a session: the code
 * (loginWithCode) trades it for one.
 */
export async function login(
  ctx: AppContext,
  email: string,
  password: string,
  ip: string,
  claimant: Claimant,
): Promise<LoginAnswer> {
  ctx.hasher.refuseIfFull();
  const keys = loginKeys(email, ip);
  // A refused (rate-limited) attempt writes no entry: the limits also bound the log's growth.
  await ctx.rateLimiter.consume(keys);
  const user = await repo.findCredentialsByEmail(ctx.db, email);
  const ok = user
    ? await ctx.hasher.verify(password, user.password_hash)
    : await ctx.hasher.verifyDummy(password);
  if (!user || !ok || user.status !== 'Active') {
    const reason = !user ? 'unknown_email' : !ok ? 'wrong_password' : 'account_blocked';
    await recordFailedSignIn(ctx, claimant, email, user, reason);
    throw new AppError(401, msg.invalidCredentials);
  }
  if (ctx.hasher.needsRehash(user.password_hash)) await rehash(ctx, user.id, password);
  if (user.two_factor_enabled_at) {
    // Only the attempt is given back: wrong codes counted so far stay until a right code.
    await ctx.rateLimiter.refund(keys.map(([key]) => key));
    return {
      twoFactorRequired: true,
      challenge: issueChallenge(ctx.tokens, user.id, user.token_version),
    };
  }
  await loginSucceeded(ctx, keys);
  await recordSignIn(ctx, claimant, user);
  return sessionFor(ctx, user);
}

/**
 * The second step of a login with two-factor sign-in: a genuine, unexpired challenge of a user
 * still active, with the same token version and two-factor on, and a right code. Each code
 * counts against the login limits like a password; a wrong one answers 400 (the page stays on
 * the step), a spent challenge 401.
 */
export async function loginWithCode(
  ctx: AppContext,
  challenge: string,
  code: string,
  ip: string,
  claimant: Claimant,
): Promise<LoginReply> {
  const claims = readChallenge(ctx.tokens, challenge);
  if (!claims) throw new AppError(401, twoFactorMessages.challengeExpired);
  const user = await repo.findCredentialsById(ctx.db, claims.sub);
  if (
    !user ||
    user.status !== 'Active' ||
    user.token_version !== claims.tv ||
    !user.two_factor_enabled_at
  ) {
    throw new AppError(401, twoFactorMessages.challengeExpired);
  }
  const keys = loginKeys(user.email, ip);
  await ctx.rateLimiter.consume(keys);
  try {
    await checkCode(ctx, ctx.db, user, code);
  } catch (err) {
    if (err instanceof AppError) {
      await recordFailedSignIn(ctx, claimant, user.email, user, 'wrong_code');
    }
    throw err;
  }
  await loginSucceeded(ctx, keys);
  // With two-factor sign-in on, the sign-in completes here: this is its one entry.
  await recordSignIn(ctx, claimant, user);
  return sessionFor(ctx, user);
}

function otpMac(ctx: AppContext, userId: string, otp: string): string {
  return ctx.tokens.mac(`otp:${userId}:${otp}`);
}

/**
 * How long a forgot-password answer takes at least. A known email writes a code and a mail in a
 * transaction, an unknown one reads a row: without a common floor the time tells them apart.
 */
export const FORGOT_ANSWER_MS = 150;

/** Answers the same, in the same time, whether or not the email exists: no probing for accounts. */
export async function forgotPassword(ctx: AppContext, email: string, ip: string): Promise<string> {
  const answerAt = performance.now() + FORGOT_ANSWER_MS;
  await ctx.rateLimiter.consume([
    [`forgot:account-ip:${email}:${ip}`, RATE_LIMITS.forgotPerAccountIp],
    [`forgot:account:${email}`, RATE_LIMITS.forgotPerAccount],
    [`forgot:ip:${ip}`, RATE_LIMITS.forgotPerIp],
  ]);
  const user = await repo.findCredentialsByEmail(ctx.db, email);
  if (user && user.status === 'Active') {
    const otp = String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
    const company = await companyOf(ctx, user.id);
    await ctx.db.transaction().execute(async (tx) => {
      await repo.createReset(tx, user.id, otpMac(ctx, user.id, otp), OTP_TTL_MINUTES);
      await ctx.outbox.queue(tx, {
        to: user.email,
        fromName: company,
        subject: `Your ${company} password reset code`,
        text:
          `Hello ${user.name},\n\nYour one-time code to reset your ${company} password is ${otp}.\n` +
          `It is valid for ${OTP_TTL_MINUTES} minutes and can be used once.\n\n` +
          `If you did not ask for it, ignore this mail: your password stays as it is.\n`,
      });
    });
  }
  await sleep(Math.max(0, answerAt - performance.now()));
  return msg.otpSent;
}

/** Checks the OTP (5 attempts, 10 minutes, single use), then sets the password and ends tokens. */
export async function resetPassword(
  ctx: AppContext,
  body: { email: string; otp: string; newPassword: string },
  ip: string,
  claimant: Claimant,
): Promise<string> {
  await ctx.rateLimiter.consume([[`reset:ip:${ip}`, RATE_LIMITS.resetPerIp]]);
  const user = await repo.findCredentialsByEmail(ctx.db, body.email);
  if (!user) throw badRequest(msg.otpInvalid);
  const valid = await ctx.db.transaction().execute(async (tx) => {
    const reset = await repo.lockOpenReset(tx, user.id);
    if (!reset) return false;
    if (reset.otp_hash !== otpMac(ctx, user.id, body.otp)) {
      await repo.recordFailedAttempt(tx, reset.id, reset.attempts + 1 >= OTP_MAX_ATTEMPTS);
      return false;
    }
    await repo.markResetUsed(tx, reset.id);
    return true;
  });
  if (!valid) throw badRequest(msg.otpInvalid);
  const company = await companyOf(ctx, user.id);
  const entry = { actor: claimant({ email: user.email, user }), action: 'password.reset' } as const;
  await changePasswordHash(ctx, user, body.newPassword, false, entry, {
    to: user.email,
    fromName: company,
    subject: `Your ${company} password was reset`,
    text: `Hello ${user.name},\n\nYour ${company} password was just reset. If this was not you, contact your administrator at once.\n`,
  });
  return msg.passwordReset;
}

/**
 * Hashes and stores a new password; every older token of the user stops working. `mustChange`
 * holds the user to changing it at the next login (an Admin set it). The notice, if any, is
 * queued in the same transaction: it goes out exactly when the change holds.
 */
async function changePasswordHash(
  ctx: AppContext,
  user: { id: string; email: string },
  password: string,
  mustChange: boolean,
  entry: {
    actor: AuditActor;
    action: 'password.change' | 'password.reset' | 'password.admin_reset';
  },
  notice?: MailMessage,
) {
  const hash = await ctx.hasher.hash(password);
  const row = await ctx.db.transaction().execute(async (tx) => {
    const updated = await repo.setPassword(tx, user.id, hash, mustChange);
    await ctx.authState.changed(tx, user.id);
    if (notice) await ctx.outbox.queue(tx, notice);
    await recordAudit(tx, { ...entry, target: userTarget(user) });
    return updated;
  });
  ctx.authState.forget(user.id);
  return row.token_version;
}

export async function changePassword(
  ctx: AppContext,
  actor: Actor & { email: string },
  body: { currentPassword: string; newPassword: string },
  auditActor: AuditActor,
): Promise<string> {
  const keys = loginKeys(actor.email, `user:${actor.id}`);
  await ctx.rateLimiter.consume(keys);
  const user = await repo.findCredentialsById(ctx.db, actor.id);
  if (!user) throw notFound(msg.userNotFound);
  if (!(await ctx.hasher.verify(body.currentPassword, user.password_hash))) {
    throw badRequest(msg.currentPasswordWrong);
  }
  await ctx.rateLimiter.refund(keys.map(([key]) => key));
  if (body.currentPassword === body.newPassword) throw badRequest(msg.passwordSameAsOld);
  const version = await changePasswordHash(ctx, user, body.newPassword, false, {
    actor: auditActor,
    action: 'password.change',
  });
  return ctx.tokens.issue(user.id, version);
}

/**
 * Admin sets a user's password; the user's sessions end, the user is told by mail and must
 * change it at the next login (the Admin knows it).
 */
export async function adminResetPassword(
  ctx: AppContext,
  actor: Actor,
  targetId: string,
  newPassword: string,
  auditActor: AuditActor,
): Promise<string> {
  const user = await repo.findCredentialsById(ctx.db, targetId);
  if (!user) throw notFound(msg.userNotFound);
  if (user.id === actor.id)
    throw badRequest('Use Change Password on your profile for your own account.');
  const company = await companyOf(ctx, user.id);
  const entry = { actor: auditActor, action: 'password.admin_reset' } as const;
  await changePasswordHash(ctx, user, newPassword, true, entry, {
    to: user.email,
    fromName: company,
    subject: `Your ${company} password was reset by an administrator`,
    text: `Hello ${user.name},\n\nAn administrator set a new password for your ${company} account. Ask them for it: you will be asked to choose a new one when you log in.\n`,
  });
  return msg.adminResetDone;
}

/** Deletes the codes and set-password links that can no longer be used (periodic job). */
export async function deleteSpentResets(db: Db): Promise<number> {
  return (await repo.deleteSpentResets(db)) + (await deleteSpentSetupTokens(db));
}

/** The company a user's mail speaks for: the user's branding (docs/product.md, Branding). */
async function companyOf(ctx: AppContext, userId: string): Promise<string> {
  return (await brandingFor(ctx, userId)).companyName;
}
