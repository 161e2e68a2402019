import {
  CREDIT_TYPES,
  SET_PASSWORD_LINK_TTL_HOURS,
  canCreateRole,
  server as msg,
  type CreateUserInput,
  type CreateUserReply,
  type Profile,
  type UserPage,
  type UsersFilters,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import { conflict, forbidden, notFound, unauthorized } from '../../lib/app-error.js';
import { generatePassword } from '../../lib/password.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { canSee, type Actor } from '../../policies/scope.js';
import { forgetScopeUsers } from '../../policies/scope-users-cache.js';
import { auditChanges, recordAudit, type AuditActor } from '../audit/index.js';
import { issueSetPasswordLink } from '../auth/set-password.service.js';
import { brandingFor } from '../branding/branding.service.js';
import { presentUser } from './users.presenter.js';
import * as repo from './users.repo.js';

/** How many users the caller's scope holds, the caller excluded (the dashboard's figure). */
export function countUsersInScope(ctx: AppContext, actor: Actor): Promise<number> {
  return repo.countInScope(ctx.db, actor);
}

/**
 * GET /api/users: a page of the caller's scope, the caller excluded, newest first; one row more
 * than asked tells whether another page follows.
 */
export async function listUsers(
  ctx: AppContext,
  actor: Actor,
  query: UsersFilters,
): Promise<UserPage> {
  const rows = await repo.listPageInScope(ctx.db, actor, { ...query, limit: query.limit + 1 });
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const last = page.at(-1);
  return {
    users: page.map((row) => presentUser(row, actor)),
    nextCursor: more && last ? `${last.cursor_micros}_${last.id}` : null,
  };
}

/**
 * Add User: the creator's role decides which roles it may create; the new user hangs under the
 * creator (created_by, ancestors). An empty password is replaced by a generated one, shown once
 * in the reply and never mailed: the new user's mail holds a one-time link to set a password of
 * its own, under the branding the new user will see (docs/product.md, Roles and scope).
 */
export async function createUser(
  ctx: AppContext,
  actor: AuthUser,
  input: CreateUserInput,
  auditActor: AuditActor,
): Promise<CreateUserReply> {
  if (!canCreateRole(actor.role, input.role)) throw forbidden(msg.roleNotAllowed);
  // Checked before hashing so a duplicate costs no scrypt; the unique index settles races.
  if (await repo.isEmailTaken(ctx.db, input.email)) throw conflict(msg.emailTaken);
  const password = input.password ?? generatePassword();
  const passwordHash = await ctx.hasher.hash(password);

  let id: string;
  try {
    id = await ctx.db.transaction().execute(async (tx) => {
      // The share lock queues us behind a concurrent role change or block of the creator, so a
      // user is never hung under a creator that can no longer hold it.
      const creator = await repo.lockById(tx, actor.id, 'share');
      if (!creator || creator.status !== 'Active') throw unauthorized(msg.sessionEnded);
      if (!canCreateRole(creator.role, input.role)) throw forbidden(msg.roleNotAllowed);
      const fields = {
        email: input.email,
        name: input.name,
        role: input.role,
        firm_name: input.firmName ?? null,
        mobile: input.mobile ?? null,
        contact_person: input.contactPerson ?? null,
        contact_person_phone: input.contactPersonPhone ?? null,
        address: input.address ?? null,
        state: input.state ?? null,
        city: input.city ?? null,
        pincode: input.pincode ?? null,
      };
      const newId = await repo.insertUser(tx, {
        ...fields,
        password_hash: passwordHash,
        created_by: creator.id,
        ancestors: [...creator.ancestors, creator.id],
      });
      await recordAudit(tx, {
        actor: auditActor,
        action: 'user.create',
        target: { type: 'user', id: newId, label: input.email, subjectUserId: newId },
        changes: auditChanges(null, fields),
      });
      // The link and its mail exist exactly when the user does. A new user has no branding of its
      // own yet, so its creator's is the one it will see.
      const link = await issueSetPasswordLink(ctx, tx, newId);
      const { companyName } = await brandingFor(ctx, creator.id, tx);
      await ctx.outbox.queue(
        tx,
        welcomeMail(input.email, input.name, actor.name, companyName, link),
      );
      return newId;
    });
  } catch (err) {
    if (repo.isUniqueViolation(err)) throw conflict(msg.emailTaken);
    throw err;
  }

  forgetScopeUsers(ctx);
  const row = await repo.findById(ctx.pool, id);
  if (!row) throw notFound(msg.userNotFound);
  const generated = input.password === undefined;
  return {
    message: generated ? msg.userCreatedWithPassword(password) : msg.userCreated,
    user: presentUser(row, actor),
    ...(generated ? { generatedPassword: password } : {}),
  };
}

function welcomeMail(
  email: string,
  name: string,
  creatorName: string,
  company: string,
  link: string,
) {
  return {
    to: email,
    fromName: company,
    subject: `Your ${company} account`,
    text:
      `Hello ${name},\n\n${creatorName} created your ${company} account. ` +
      `You log in with this email address: ${email}\n\n` +
      `Choose your password with this link. It works once, within ${SET_PASSWORD_LINK_TTL_HOURS} hours:\n` +
      `${link}\n\n` +
      `If it has expired, use Forgot Password on the login page to get a code by mail.\n`,
  };
}

/** A user's profile; out of scope reads as not found. One statement reads all of it. */
export async function getProfile(ctx: AppContext, actor: Actor, id: string): Promise<Profile> {
  const row = await repo.findProfile(ctx.pool, id);
  if (!row || !canSee(actor, row)) throw notFound(msg.userNotFound);
  const { balances, recent_campaigns: recent, ...user } = row;
  balances.sort((a, b) => creditTypeOrder(a.creditType) - creditTypeOrder(b.creditType));
  const recentCampaigns = recent.map((c) => ({
    ...c,
    createdAt: new Date(c.createdAt).toISOString(),
  }));
  return { user: presentUser(user, actor), balances, recentCampaigns };
}

const creditTypeOrder = (type: string) => (CREDIT_TYPES as readonly string[]).indexOf(type);
