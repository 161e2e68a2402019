import { randomUUID } from 'node:crypto';
import {
  server as msg,
  WEBHOOK_ENDPOINTS_PER_USER,
  type CreateWebhookInput,
  type CreateWebhookReply,
  type RotateWebhookSecretReply,
  type UpdateWebhookInput,
  type WebhookDeliveriesFilters,
  type WebhookDeliveryPage,
  type WebhookEndpointReply,
  type WebhookList,
  type AuditAction,
  type AuditChanges,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { resolveWebhookHost } from './webhook-address.js';
import { secretContext } from './webhook-delivery.js';
import { newWebhookSecret } from './webhook-sender.js';
import { presentDelivery, presentEndpoint } from './webhooks.presenter.js';
import * as repo from './webhooks.repo.js';
import { auditChanges, recordAudit, type AuditActor } from '../audit/index.js';
import type { Tx } from '../../db/database.js';

/** An endpoint's audit entry: the owner is its subject, its URL its label. */
function recordEndpoint(
  tx: Tx,
  audit: AuditActor,
  action: AuditAction,
  endpoint: { id: string; userId: string; url: string },
  changes: AuditChanges | null,
) {
  return recordAudit(tx, {
    actor: audit,
    action,
    target: {
      type: 'webhook_endpoint',
      id: endpoint.id,
      label: endpoint.url,
      subjectUserId: endpoint.userId,
    },
    changes,
  });
}

/**
 * Webhook endpoints' rules (docs/api.md, Webhooks). Every role manages its own endpoints; one
 * outside the caller's answers 404, as if it did not exist. A URL's host is resolved when it is
 * saved and refused when it is private (the delivery checks again at each send). The signing
 * secret is made here, sealed, and answered once.
 */

export async function listEndpoints(ctx: AppContext, actor: AuthUser): Promise<WebhookList> {
  const [rows, threshold] = await Promise.all([
    repo.listForOwner(ctx.db, actor.id),
    repo.getThreshold(ctx.db, actor.id),
  ]);
  return {
    endpoints: rows.map(presentEndpoint),
    httpsOnly: !ctx.config.webhooks.allowPrivate,
    lowBalanceThreshold: threshold,
  };
}

async function checkReachable(ctx: AppContext, url: string): Promise<void> {
  const target = await resolveWebhookHost(url, ctx.config.webhooks.allowPrivate);
  if (!target.ok) {
    throw badRequest(
      target.reason === 'private' ? msg.webhookUrlPrivate : msg.webhookUrlUnresolvable,
    );
  }
}

async function reread(ctx: AppContext, actor: AuthUser, id: string) {
  const row = await repo.findOwned(ctx.db, actor.id, id);
  if (!row) throw notFound(msg.webhookEndpointNotFound);
  return presentEndpoint(row);
}

export async function createEndpoint(
  ctx: AppContext,
  actor: AuthUser,
  audit: AuditActor,
  body: CreateWebhookInput,
): Promise<CreateWebhookReply> {
  await checkReachable(ctx, body.url);
  const id = randomUUID();
  const secret = newWebhookSecret();
  await ctx.db.transaction().execute(async (tx) => {
    if ((await repo.lockOwnerAndCount(tx, actor.id)) >= WEBHOOK_ENDPOINTS_PER_USER) {
      throw conflict(msg.webhookEndpointsTooMany(WEBHOOK_ENDPOINTS_PER_USER));
    }
    await repo.insertEndpoint(tx, {
      id,
      userId: actor.id,
      url: body.url,
      description: body.description,
      events: body.events,
      sealedSecret: ctx.secretBox.seal(secret, secretContext(id)),
    });
    const fields = { url: body.url, description: body.description, events: body.events };
    await recordEndpoint(
      tx,
      audit,
      'webhook_endpoint.create',
      { id, userId: actor.id, url: body.url },
      auditChanges(null, fields),
    );
  });
  return {
    message: msg.webhookEndpointCreated,
    endpoint: await reread(ctx, actor, id),
    secret,
  };
}

/**
 * PATCH /api/webhooks/{id}: its entries, in the edit's transaction, are `update` with the
 * changed URL, description or events, and `enable` or `disable` when `enabled` moved; an edit
 * that changes nothing writes none.
 */
export async function updateEndpoint(
  ctx: AppContext,
  actor: AuthUser,
  audit: AuditActor,
  id: string,
  body: UpdateWebhookInput,
): Promise<WebhookEndpointReply> {
  if (body.url !== undefined) await checkReachable(ctx, body.url);
  await ctx.db.transaction().execute(async (tx) => {
    const before = await repo.lockOwned(tx, actor.id, id);
    if (!before || !(await repo.updateEndpoint(tx, actor.id, id, body))) {
      throw notFound(msg.webhookEndpointNotFound);
    }
    const endpoint = { id, userId: actor.id, url: body.url ?? before.url };
    const { enabled, ...fields } = body;
    const changed = auditChanges(
      { url: before.url, description: before.description, events: before.events },
      { url: before.url, description: before.description, events: before.events, ...fields },
    );
    if (Object.keys(changed).length > 0) {
      await recordEndpoint(tx, audit, 'webhook_endpoint.update', endpoint, changed);
    }
    if (enabled !== undefined && enabled !== before.enabled) {
      await recordEndpoint(
        tx,
        audit,
        enabled ? 'webhook_endpoint.enable' : 'webhook_endpoint.disable',
        endpoint,
        { enabled: { before: before.enabled, after: enabled } },
      );
    }
  });
  return { message: msg.webhookEndpointUpdated, endpoint: await reread(ctx, actor, id) };
}

export async function deleteEndpoint(
  ctx: AppContext,
  actor: AuthUser,
  audit: AuditActor,
  id: string,
) {
  await ctx.db.transaction().execute(async (tx) => {
    const before = await repo.lockOwned(tx, actor.id, id);
    if (!before || !(await repo.deleteEndpoint(tx, actor.id, id))) {
      throw notFound(msg.webhookEndpointNotFound);
    }
    await recordEndpoint(
      tx,
      audit,
      'webhook_endpoint.delete',
      { id, userId: actor.id, url: before.url },
      auditChanges({ url: before.url, events: before.events }, null),
    );
  });
  return msg.webhookEndpointDeleted;
}

/** A new secret at once; deliveries signed from now on use it. */
export async function rotateSecret(
  ctx: AppContext,
  actor: AuthUser,
  audit: AuditActor,
  id: string,
): Promise<RotateWebhookSecretReply> {
  const secret = newWebhookSecret();
  const sealed = ctx.secretBox.seal(secret, secretContext(id));
  await ctx.db.transaction().execute(async (tx) => {
    const before = await repo.lockOwned(tx, actor.id, id);
    if (!before || !(await repo.updateEndpoint(tx, actor.id, id, { secret: sealed }))) {
      throw notFound(msg.webhookEndpointNotFound);
    }
    // Only that it happened: neither secret goes in the entry.
    await recordEndpoint(
      tx,
      audit,
      'webhook_endpoint.rotate_secret',
      { id, userId: actor.id, url: before.url },
      null,
    );
  });
  return { message: msg.webhookSecretRotated, secret };
}

/** Queues a `webhook.test` event for this endpoint alone. */
export async function sendTest(ctx: AppContext, actor: AuthUser, id: string): Promise<string> {
  const row = await repo.findOwned(ctx.db, actor.id, id);
  if (!row) throw notFound(msg.webhookEndpointNotFound);
  if (!row.enabled) throw conflict(msg.webhookEndpointDisabledTest);
  await repo.emit(
    ctx.db,
    actor.id,
    'webhook.test',
    { endpointId: id, message: 'This is a test event from Herald.' },
    id,
  );
  return msg.webhookTestQueued;
}

export async function listDeliveries(
  ctx: AppContext,
  actor: AuthUser,
  id: string,
  q: WebhookDeliveriesFilters,
): Promise<WebhookDeliveryPage> {
  if (!(await repo.findOwned(ctx.db, actor.id, id))) throw notFound(msg.webhookEndpointNotFound);
  const rows = await repo.listDeliveries(ctx.db, id, q.cursor, q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    deliveries: page.map(presentDelivery),
    nextCursor: rows.length > q.limit && last ? last.id : null,
  };
}

export async function setLowBalanceThreshold(
  ctx: AppContext,
  actor: AuthUser,
  threshold: number | null,
): Promise<string> {
  await repo.setThreshold(ctx.db, actor.id, threshold);
  return msg.lowBalanceThresholdSaved;
}
