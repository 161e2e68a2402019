import {
  CREDIT_TYPES,
  kindCarries,
  SENDER_ADDRESS_LABELS,
  senderAddressRequired,
  type ProviderKind,
  server as msg,
  type CreateSenderBody,
  type CreditRoute,
  type Sender,
  type UpdateRoutesBody,
  type UpdateSenderBody,
} from '@herald/contract';
import type { AppContext } from '../../../context.js';
import { isUniqueViolation } from '../../../db/pg-errors.js';
import { badRequest, conflict, forbidden, notFound } from '../../../lib/app-error.js';
import type { Actor } from '../../../policies/scope.js';
import * as providers from './providers.repo.js';
import * as repo from './senders.repo.js';

/**
 * Senders and routing (Admin): each sender of a provider with its address, rate and daily
 * limit; which sender each credit type goes through (docs/delivery.md, Providers in the
 * database). The dispatcher reads the sender's row at each bucket take, so a new rate holds
 * within a batch.
 */

export function requireAdmin(actor: Actor): void {
  if (actor.role !== 'Admin') throw forbidden();
}

function present(row: repo.SenderRow): Sender {
  return {
    id: row.id,
    name: row.name,
    provider: row.provider_name,
    providerId: row.provider_id,
    providerKind: row.provider_kind,
    address: row.address,
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

async function presentOne(ctx: AppContext, id: string): Promise<Sender> {
  const row = await repo.getSender(ctx.db, id);
  if (!row) throw notFound(msg.senderNotFound);
  return present(row);
}

/** A sender's address is required where the provider addresses by it (all but a simulator). */
function checkAddress(kind: ProviderKind, address: string): void {
  if (senderAddressRequired(kind) && address === '') {
    throw badRequest(msg.senderAddressRequired(SENDER_ADDRESS_LABELS[kind]));
  }
}

const nameTaken = (err: unknown) => (isUniqueViolation(err) ? conflict(msg.senderNameTaken) : err);

export async function createSender(
  ctx: AppContext,
  actor: Actor,
  body: CreateSenderBody,
): Promise<Sender> {
  requireAdmin(actor);
  const provider = await providers.getProvider(ctx.db, body.providerId);
  if (!provider) throw notFound(msg.providerNotFound);
  const address = body.address ?? '';
  checkAddress(provider.kind, address);
  const id = await repo
    .insertSender(ctx.db, provider.id, {
      name: body.name,
      address,
      ratePerSecond: Number(body.ratePerSecond),
      dailyLimit: body.dailyLimit === null ? null : Number(body.dailyLimit),
    })
    .catch((err: unknown) => {
      throw nameTaken(err);
    });
  return presentOne(ctx, id);
}

export async function updateSender(
  ctx: AppContext,
  actor: Actor,
  id: string,
  body: UpdateSenderBody,
): Promise<Sender> {
  requireAdmin(actor);
  const current = await repo.getSender(ctx.db, id);
  if (!current) throw notFound(msg.senderNotFound);
  if (body.address !== undefined) checkAddress(current.provider_kind, body.address);
  const change = {
    name: body.name,
    address: body.address,
    ratePerSecond: Number(body.ratePerSecond),
    dailyLimit: body.dailyLimit === null ? null : Number(body.dailyLimit),
  };
  const updated = await repo.updateSender(ctx.db, id, change).catch((err: unknown) => {
    throw nameTaken(err);
  });
  if (!updated) throw notFound(msg.senderNotFound);
  return presentOne(ctx, id);
}

/** Refused for the default sender and while a campaign it sends is not settled. */
export async function deleteSender(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  requireAdmin(actor);
  const current = await repo.getSender(ctx.db, id);
  if (!current) throw notFound(msg.senderNotFound);
  if (current.is_default) throw conflict(msg.senderIsDefault);
  if (await repo.senderSending(ctx.db, id)) throw conflict(msg.senderSending);
  if (!(await repo.deleteSender(ctx.db, id))) throw notFound(msg.senderNotFound);
}

export async function listRoutes(ctx: AppContext, actor: Actor): Promise<CreditRoute[]> {
  requireAdmin(actor);
  const routed = new Map((await repo.listRoutes(ctx.db)).map((r) => [r.credit_type, r.sender_id]));
  return CREDIT_TYPES.map((creditType) => ({
    creditType,
    senderId: routed.get(creditType) ?? null,
  }));
}

/**
 * Sets the routes given (others stay as they are); a rich type never goes to an SMS gateway.
 * All or nothing, in one transaction.
 */
export async function updateRoutes(
  ctx: AppContext,
  actor: Actor,
  body: UpdateRoutesBody,
): Promise<CreditRoute[]> {
  requireAdmin(actor);
  await ctx.db.transaction().execute(async (tx) => {
    for (const route of body.routes) {
      if (route.senderId === null) {
        await repo.setRoute(tx, route.creditType, null);
        continue;
      }
      const sender = await repo.getSender(tx, route.senderId);
      if (!sender) throw notFound(msg.senderNotFound);
      if (!kindCarries(sender.provider_kind, route.creditType)) {
        throw badRequest(msg.routeRichToSms(route.creditType));
      }
      await repo.setRoute(tx, route.creditType, sender.id);
    }
  });
  return listRoutes(ctx, actor);
}
