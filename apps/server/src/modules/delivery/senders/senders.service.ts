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
import type { DbOrTx } from '../../../db/database.js';
import { isUniqueViolation } from '../../../db/pg-errors.js';
import { badRequest, conflict, forbidden, notFound } from '../../../lib/app-error.js';
import type { Actor } from '../../../policies/scope.js';
import { auditChanges, recordAudit, type AuditActor } from '../../audit/index.js';
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

/** What a sender's entry compares. */
const storedSender = (row: repo.SenderRow) => ({
  name: row.name,
  address: row.address,
  ratePerSecond: row.rate_per_second,
  dailyLimit: row.daily_limit,
});

const senderTarget = (id: string, name: string) => ({
  type: 'sender' as const,
  id,
  label: name,
  subjectUserId: null,
});

const nameTaken = (err: unknown) => (isUniqueViolation(err) ? conflict(msg.senderNameTaken) : err);

export async function createSender(
  ctx: AppContext,
  actor: Actor,
  body: CreateSenderBody,
  auditActor: AuditActor,
): Promise<Sender> {
  requireAdmin(actor);
  const provider = await providers.getProvider(ctx.db, body.providerId);
  if (!provider) throw notFound(msg.providerNotFound);
  const address = body.address ?? '';
  checkAddress(provider.kind, address);
  const fields = {
    name: body.name,
    address,
    ratePerSecond: Number(body.ratePerSecond),
    dailyLimit: body.dailyLimit === null ? null : Number(body.dailyLimit),
  };
  const id = await ctx.db
    .transaction()
    .execute(async (tx) => {
      const newId = await repo.insertSender(tx, provider.id, fields);
      await recordAudit(tx, {
        actor: auditActor,
        action: 'sender.create',
        target: senderTarget(newId, body.name),
        changes: auditChanges(null, { ...fields, provider: provider.name }),
      });
      return newId;
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
  auditActor: AuditActor,
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
  const updated = await ctx.db
    .transaction()
    .execute(async (tx) => {
      if (!(await repo.updateSender(tx, id, change))) return false;
      const before = storedSender(current);
      // A field left out of the request keeps its value: it is no change.
      const after = {
        name: change.name ?? before.name,
        address: change.address ?? before.address,
        ratePerSecond: change.ratePerSecond,
        dailyLimit: change.dailyLimit,
      };
      await recordAudit(tx, {
        actor: auditActor,
        action: 'sender.update',
        target: senderTarget(id, after.name),
        changes: auditChanges(before, after),
      });
      return true;
    })
    .catch((err: unknown) => {
      throw nameTaken(err);
    });
  if (!updated) throw notFound(msg.senderNotFound);
  return presentOne(ctx, id);
}

/** Refused for the default sender and while a campaign it sends is not settled. */
export async function deleteSender(
  ctx: AppContext,
  actor: Actor,
  id: string,
  auditActor: AuditActor,
): Promise<void> {
  requireAdmin(actor);
  const current = await repo.getSender(ctx.db, id);
  if (!current) throw notFound(msg.senderNotFound);
  if (current.is_default) throw conflict(msg.senderIsDefault);
  if (await repo.senderSending(ctx.db, id)) throw conflict(msg.senderSending);
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await repo.deleteSender(tx, id))) throw notFound(msg.senderNotFound);
    await recordAudit(tx, {
      actor: auditActor,
      action: 'sender.delete',
      target: senderTarget(id, current.name),
      changes: auditChanges({ ...storedSender(current), provider: current.provider_name }, null),
    });
  });
}

export async function listRoutes(ctx: AppContext, actor: Actor): Promise<CreditRoute[]> {
  requireAdmin(actor);
  const routed = new Map((await repo.listRoutes(ctx.db)).map((r) => [r.credit_type, r.sender_id]));
  return CREDIT_TYPES.map((creditType) => ({
    creditType,
    senderId: routed.get(creditType) ?? null,
  }));
}

/** Each credit type's routed sender by name, null for the default sender (the entry's fields). */
async function routedSenderNames(tx: DbOrTx): Promise<Record<string, string | null>> {
  const names = new Map((await repo.listSenders(tx)).map((s) => [s.id, s.name]));
  const routed = new Map((await repo.listRoutes(tx)).map((r) => [r.credit_type, r.sender_id]));
  return Object.fromEntries(
    CREDIT_TYPES.map((type) => {
      const senderId = routed.get(type);
      return [type, senderId ? (names.get(senderId) ?? senderId) : null];
    }),
  );
}

/**
 * Sets the routes given (others stay as they are); a rich type never goes to an SMS gateway.
 * All or nothing, in one transaction.
 */
export async function updateRoutes(
  ctx: AppContext,
  actor: Actor,
  body: UpdateRoutesBody,
  auditActor: AuditActor,
): Promise<CreditRoute[]> {
  requireAdmin(actor);
  await ctx.db.transaction().execute(async (tx) => {
    const before = await routedSenderNames(tx);
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
    const changes = auditChanges(before, await routedSenderNames(tx));
    // Routes sent as they already were change nothing: no entry.
    if (Object.keys(changes).length === 0) return;
    await recordAudit(tx, {
      actor: auditActor,
      action: 'routing.update',
      target: { type: 'routing', id: null, label: 'Credit type routing', subjectUserId: null },
      changes,
    });
  });
  return listRoutes(ctx, actor);
}
