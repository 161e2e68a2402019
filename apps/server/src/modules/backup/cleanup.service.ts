import type { z } from 'zod';
import type { CleanupBodySchema } from '@herald/contract';
import { server as msg, type CleanupReply } from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { localDayEnd, localDayStart } from '../../lib/local-day.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { forgetScopeUsers } from '../../policies/scope-users-cache.js';
import { auditChanges, recordAudit, type AuditActor } from '../audit/index.js';
import { deleteCampaigns, removeCampaignFiles } from '../campaigns/index.js';
import { cleanupLedger } from '../credits/index.js';
import { deleteTicketsOf, removeTicketFiles } from '../tickets/index.js';
import { deleteUsers, lockUsersCreatedBetween, reparentSurvivors } from '../users/index.js';
import { saveBackup } from './backup-store.js';

/**
 * DELETE /api/data/cleanup (docs/product.md, Backup and storage). A backup is saved to the
 * server first; then the range is deleted in one transaction:
 * - campaigns created in the range whose credits are settled (their ledger entries stay: no
 *   balance changes); unsettled ones are kept and counted in the message;
 * - transactions created in the range, each remaining user's balance carried forward;
 * - users created in the range (never an Admin), with their campaigns, tickets and ledger
 *   entries; users they created move under the nearest remaining creator, and every remaining
 *   user's balance is carried forward.
 * Stored files of deleted campaigns and tickets are removed after the commit.
 */
export type CleanupInput = z.output<typeof CleanupBodySchema>;

const LABEL = { campaigns: 'campaigns', users: 'users', transactions: 'transactions' } as const;

export async function cleanup(
  ctx: AppContext,
  actor: AuthUser,
  input: CleanupInput,
  auditActor: AuditActor,
): Promise<CleanupReply> {
  // The schema refuses a body without both dates; this keeps the types honest.
  if (!input.fromDate || !input.toDate) throw new Error(msg.cleanupDatesRequired);
  const tz = input.tzOffset ?? 0;
  const from = localDayStart(input.fromDate, tz);
  const to = localDayEnd(input.toDate, tz);

  const backup = await saveBackup(ctx, 'cleanup');

  const { deleted, kept, campaignFiles, ticketFiles } = await ctx.db
    .transaction()
    .execute(async (tx) => {
      const gone = await deleteRange(tx, input.dataType, { from, to }, actor.id);
      // What was asked and what it removed: the entry is the only trace the deleted rows leave.
      const { dataType, fromDate, toDate } = input;
      await recordAudit(tx, {
        actor: auditActor,
        action: 'cleanup.run',
        target: { type: 'cleanup', id: null, label: LABEL[dataType], subjectUserId: null },
        changes: auditChanges(null, {
          dataType,
          fromDate,
          toDate,
          deleted: gone.deleted,
          kept: gone.kept,
          backup,
        }),
      });
      return gone;
    });
  if (input.dataType === 'users' && deleted > 0) forgetScopeUsers(ctx);

  await removeCampaignFiles(ctx.files, campaignFiles).catch((err: unknown) =>
    ctx.log.warn({ err, component: 'cleanup' }, 'campaign files left behind (the sweep retries)'),
  );
  await removeTicketFiles(ctx.files, ticketFiles).catch((err: unknown) =>
    ctx.log.warn({ err, component: 'cleanup' }, 'ticket files left behind (the sweep retries)'),
  );
  return {
    message: msg.cleanupDone(deleted, LABEL[input.dataType], backup, kept),
    backup,
    deleted,
  };
}

interface Removed {
  deleted: number;
  /** Campaigns of the range kept because their credits are not settled. */
  kept: number;
  campaignFiles: string[];
  ticketFiles: string[];
}

/** Deletes the range's rows of one kind, in the cleanup's transaction. */
async function deleteRange(
  tx: Tx,
  dataType: CleanupInput['dataType'],
  range: { from: Date; to: Date },
  actorId: string,
): Promise<Removed> {
  const none = { deleted: 0, kept: 0, campaignFiles: [], ticketFiles: [] };
  if (dataType === 'campaigns') {
    const gone = await deleteCampaigns(tx, range);
    return { ...none, deleted: gone.count, kept: gone.kept, campaignFiles: gone.storedNames };
  }
  if (dataType === 'transactions') {
    return { ...none, deleted: await cleanupLedger(tx, { ...range, actorId }) };
  }
  const userIds = await lockUsersCreatedBetween(tx, range.from, range.to);
  if (userIds.length === 0) return none;
  const campaigns = await deleteCampaigns(tx, { userIds });
  const tickets = await deleteTicketsOf(tx, userIds);
  await cleanupLedger(tx, { userIds, actorId });
  await reparentSurvivors(tx, userIds);
  return {
    deleted: await deleteUsers(tx, userIds),
    kept: 0,
    campaignFiles: campaigns.storedNames,
    ticketFiles: tickets.storedNames,
  };
}
