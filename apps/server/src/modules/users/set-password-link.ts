import { RATE_LIMITS, SET_PASSWORD_LINK_TTL_HOURS, server as msg } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { conflict, notFound } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { isBelow } from '../../policies/scope.js';
import { issueSetPasswordLink } from '../auth/set-password.service.js';
import { brandingFor } from '../branding/branding.service.js';
import * as repo from './users.repo.js';

/**
 * POST /api/users/{id}/set-password-link (docs/product.md, Roles and scope): a manager sends a
 * user below it a new one-time link to set a password, when the first one expired or was lost.
 * The new link ends the older ones; the mail speaks for the user's own brand. Outside the
 * caller's subtree the user reads as not found; a blocked user gets no link.
 */
export async function sendSetPasswordLink(
  ctx: AppContext,
  actor: AuthUser,
  targetId: string,
): Promise<string> {
  const target = await repo.findById(ctx.pool, targetId);
  if (!target || !isBelow(actor, target)) throw notFound(msg.userNotFound);
  if (target.status !== 'Active') throw conflict(msg.setPasswordLinkInactive);
  await ctx.rateLimiter.consume([
    [`set-password-link:user:${target.id}`, RATE_LIMITS.setPasswordLinkPerUser],
  ]);
  await ctx.db.transaction().execute(async (tx) => {
    const link = await issueSetPasswordLink(ctx, tx, target.id);
    const { companyName } = await brandingFor(ctx, target.id, tx);
    await ctx.outbox.queue(tx, {
      to: target.email,
      fromName: companyName,
      subject: `Set your ${companyName} password`,
      text:
        `Hello ${target.name},\n\n${actor.name} sent you a new link to set the password of ` +
        `your ${companyName} account (${target.email}). ` +
        `It works once, within ${SET_PASSWORD_LINK_TTL_HOURS} hours:\n${link}\n\n` +
        `Links sent to you before this one no longer work.\n`,
    });
  });
  return msg.setPasswordLinkSent(target.email);
}
