import { server as msg, type Sender, type UpdateSenderBody } from '@herald/contract';
import type { AppContext } from '../../../context.js';
import { forbidden, notFound } from '../../../lib/app-error.js';
import type { Actor } from '../../../policies/scope.js';
import * as repo from './senders.repo.js';

/** Delivery Settings: the Admin sets each sender's rate and daily limit. */

function requireAdmin(actor: Actor): void {
  if (actor.role !== 'Admin') throw forbidden();
}

function present(row: repo.SenderRow): Sender {
  return {
    id: row.id,
    name: row.name,
    provider: row.provider,
    ratePerSecond: row.rate_per_second,
    dailyLimit: row.daily_limit,
    isDefault: row.is_default,
    sentToday: Number(row.sent_today),
  };
}

export async function listSenders(ctx: AppContext, actor: Actor): Promise<Sender[]> {
  requireAdmin(actor);
  return (await repo.listSenders(ctx.db)).map(present);
}

/** The dispatcher reads the row at each bucket take, so a new rate holds within a batch. */
export async function updateSender(
  ctx: AppContext,
  actor: Actor,
  id: string,
  body: UpdateSenderBody,
): Promise<Sender> {
  requireAdmin(actor);
  if (!(await repo.updateSenderLimits(ctx.db, id, body.ratePerSecond, body.dailyLimit))) {
    throw notFound(msg.senderNotFound);
  }
  const row = await repo.getSender(ctx.db, id);
  if (!row) throw notFound(msg.senderNotFound);
  return present(row);
}
