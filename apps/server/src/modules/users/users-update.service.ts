import type { FastifyBaseLogger } from 'fastify';
import {
  canCreateRole,
  server as msg,
  UpdateUserBodySchema,
  type Role,
  type User,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { recordAudit, type AuditActor } from '../audit/index.js';
import { changeLogo, checkLogo, type LogoForm } from '../branding/index.js';
import { unassignTicketsOf } from '../tickets/index.js';
import { isBelow } from '../../policies/scope.js';
import { userEditEntries } from './users-audit.js';
import { planUpdate, type UpdatePlan } from './users-update.rules.js';
import { presentUser } from './users.presenter.js';
import { forgetScopeUsers } from '../../policies/scope-users-cache.js';
import * as repo from './users.repo.js';

/**
 * Edit User. The target must be the caller or strictly below it, else 404. The new logo is
 * written before the transaction and removed again if it fails; the replaced logo is deleted
 * only after commit, so a failure never loses the stored one (changeLogo).
 */
export async function updateUser(
  ctx: AppContext,
  actor: AuthUser,
  targetId: string,
  { fields, logo }: LogoForm,
  log: FastifyBaseLogger,
  auditActor: AuditActor,
): Promise<User> {
  const parsed = UpdateUserBodySchema.safeParse(fields);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message);
  const input = parsed.data;
  const checkedLogo = checkLogo(logo);

  const found = await repo.findById(ctx.pool, targetId);
  if (!found || (found.id !== actor.id && !isBelow(actor, found))) {
    throw notFound(msg.userNotFound);
  }

  try {
    // The new logo is stored before the transaction and removed if it fails; the replaced one
    // is deleted after the commit (changeLogo, shared with Whitelabel Settings).
    await changeLogo(
      ctx.files,
      checkedLogo,
      async (newLogoName) => {
        const p = await ctx.db.transaction().execute(async (tx) => {
          const target = await lockTarget(tx, found.id, found.role, found.created_by);
          if (!target) throw notFound(msg.userNotFound);
          const sent = (field: string) => Object.hasOwn(fields, field);
          const next = planUpdate(actor, target, input, sent, newLogoName);
          await checkAgainstOthers(tx, target, next, input.email);
          await repo.updateUser(tx, target.id, next.set, next.endsTokens);
          for (const entry of userEditEntries(auditActor, target, next.set)) {
            await recordAudit(tx, entry);
          }
          // Only a Reseller is assigned tickets; the assignment must not outlive the role
          // (docs/product.md, Tickets).
          if (next.roleChanges && next.nextRole !== 'Reseller') {
            await unassignTicketsOf(tx, target.id);
          }
          if (next.identityChanges) await ctx.authState.changed(tx, target.id);
          return next;
        });
        forgetScopeUsers(ctx);
        // A request between the NOTIFY and the commit may have cached the old row.
        if (p.identityChanges) ctx.authState.forget(found.id);
        return p;
      },
      log,
    );
  } catch (err) {
    if (repo.isUniqueViolation(err)) throw conflict(msg.emailTaken);
    throw err;
  }
  const row = await repo.findById(ctx.pool, found.id);
  if (!row) throw notFound(msg.userNotFound);
  return presentUser(row, actor);
}

/**
 * Locks in one global order (Admins first, then creator before target) so concurrent edits
 * queue rather than deadlock. The creator's share lock holds its role still while we check that
 * it may hold the target's new role; creating a user under the target takes the same lock, so a
 * child cannot appear while the target's role changes.
 */
async function lockTarget(tx: Tx, id: string, role: Role, createdBy: string | null) {
  if (role === 'Admin') await repo.lockAdmins(tx);
  else if (createdBy) await repo.lockById(tx, createdBy, 'share');
  return repo.lockById(tx, id, 'update');
}

/** The rules that depend on other rows: last active Admin, the hierarchy, a unique email. */
async function checkAgainstOthers(
  tx: Tx,
  target: repo.LockedUser,
  p: UpdatePlan,
  email: string,
): Promise<void> {
  if (p.removesActiveAdmin) {
    const admins = await repo.lockAdmins(tx);
    const othersActive = admins.some((a) => a.id !== target.id && a.status === 'Active');
    if (!othersActive) throw conflict(msg.lastAdmin);
  }
  if (p.roleChanges) {
    const creator = target.created_by ? await repo.lockById(tx, target.created_by, 'share') : null;
    // A user without a creator is the top of the tree: only an Admin can be there.
    const parentOk = creator ? canCreateRole(creator.role, p.nextRole) : p.nextRole === 'Admin';
    if (!parentOk) throw badRequest(msg.roleParentMismatch);
    const children = await repo.childRoles(tx, target.id);
    if (children.some((r) => !canCreateRole(p.nextRole, r))) {
      throw new AppError(409, msg.roleHasSubtree);
    }
  }
  if (p.emailChanges && (await repo.isEmailTaken(tx, email, target.id))) {
    throw conflict(msg.emailTaken);
  }
}
