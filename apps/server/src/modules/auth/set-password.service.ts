import { createHash, randomBytes } from 'node:crypto';
import {
  RATE_LIMITS,
  type Branding,
  SET_PASSWORD_LINK_TTL_HOURS,
  SET_PASSWORD_PATH,
  server as msg,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { badRequest } from '../../lib/app-error.js';
import { recordAudit } from '../audit/index.js';
import { brandingFor } from '../branding/branding.service.js';
import type { Claimant } from './auth-audit.js';
import * as authRepo from './auth.repo.js';
import * as repo from './set-password.repo.js';

/**
 * A new user's mailed link to set a password (docs/product.md, Roles and scope): no password
 * travels by mail. The token is 256 random bits; only its SHA-256 is stored (a fast hash is
 * enough for a secret this long), so the table alone opens no account.
 */

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Writes a link for the user in the caller's transaction (the one that creates the user, so the
 * link exists exactly when the mail goes out) and answers its URL.
 */
export async function issueSetPasswordLink(
  ctx: AppContext,
  tx: Tx,
  userId: string,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  // One working link per user: a new one (Send password link) ends the older ones.
  await repo.endOpenSetupTokens(tx, userId);
  await repo.insertSetupToken(tx, userId, tokenHash(token), SET_PASSWORD_LINK_TTL_HOURS);
  return `${ctx.config.publicUrl}${SET_PASSWORD_PATH}#${token}`;
}

/**
 * POST /api/set-password/check: the branding the link's user will see while the link works, so
 * the page speaks for that company (docs/product.md, Branding); a spent link answers 400.
 */
export async function checkSetPasswordLink(
  ctx: AppContext,
  token: string,
  ip: string,
): Promise<Branding> {
  await ctx.rateLimiter.consume([[`set-password-check:ip:${ip}`, RATE_LIMITS.resetPerIp]]);
  const open = await repo.findOpenSetupToken(ctx.db, tokenHash(token));
  if (!open) throw badRequest(msg.setPasswordLinkInvalid);
  return brandingFor(ctx, open.id);
}

/**
 * POST /api/set-password: sets the password of the link's user and spends the link; the user's
 * older tokens end. An unknown, used or expired link, or a blocked user, changes nothing and
 * answers one message. The password is hashed first, outside the transaction that takes the link.
 */
export async function setPasswordWithLink(
  ctx: AppContext,
  body: { token: string; newPassword: string },
  ip: string,
  claimant: Claimant,
): Promise<string> {
  await ctx.rateLimiter.consume([[`set-password:ip:${ip}`, RATE_LIMITS.resetPerIp]]);
  const hash = await ctx.hasher.hash(body.newPassword);
  const userId = await ctx.db.transaction().execute(async (tx) => {
    const user = await repo.takeSetupToken(tx, tokenHash(body.token));
    if (!user) return null;
    await authRepo.setPassword(tx, user.id, hash, false);
    await ctx.authState.changed(tx, user.id);
    await recordAudit(tx, {
      actor: claimant({ email: user.email, user }),
      action: 'password.set',
      target: { type: 'user', id: user.id, label: user.email, subjectUserId: user.id },
    });
    return user.id;
  });
  if (!userId) throw badRequest(msg.setPasswordLinkInvalid);
  ctx.authState.forget(userId);
  return msg.passwordSet;
}
