import type { Role } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { recordAudit, type AuditActor } from '../audit/index.js';
import type * as repo from './auth.repo.js';

/** The audit entries of sign-ins and password changes (docs/audit.md). */

export type Credentials = NonNullable<Awaited<ReturnType<typeof repo.findCredentialsById>>>;

/**
 * Who a public request claims to be, as its audit entry names them (the route builds it with
 * anonymousActor): the email given, and the account if one matched.
 */
export type Claimant = (claimed: {
  email: string;
  user?: { id: string; role: Role } | null;
}) => AuditActor;

/** Why a sign-in failed, as its audit entry keeps it. */
export type SignInFailure = 'unknown_email' | 'wrong_password' | 'account_blocked' | 'wrong_code';

/** The account an entry of the auth module is about. */
export const userTarget = (user: { id: string; email: string }) => ({
  type: 'user' as const,
  id: user.id,
  label: user.email,
  subjectUserId: user.id,
});

/**
 * A failed sign-in's entry, written on its own (no change goes with it). It must never turn the
 * answer into another one: a write that fails is logged and the attempt answers as it would.
 */
export async function recordFailedSignIn(
  ctx: AppContext,
  claimant: Claimant,
  email: string,
  user: Credentials | undefined,
  reason: SignInFailure,
): Promise<void> {
  try {
    await recordAudit(ctx.db, {
      actor: claimant({ email, user }),
      action: 'auth.sign_in_failed',
      target: {
        type: 'user',
        id: user?.id ?? null,
        label: email,
        subjectUserId: user?.id ?? null,
      },
      changes: { reason: { before: null, after: reason } },
    });
  } catch (err) {
    ctx.log.warn({ err, component: 'audit' }, 'a failed sign-in was not recorded');
  }
}

/** A completed sign-in: the session is given only once its entry is written. */
export function recordSignIn(
  ctx: AppContext,
  claimant: Claimant,
  user: Credentials,
): Promise<void> {
  return recordAudit(ctx.db, {
    actor: claimant({ email: user.email, user }),
    action: 'auth.sign_in',
    target: userTarget(user),
  });
}
