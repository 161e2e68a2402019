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
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { resolveWebhookHost } from './webhook-address.js';
import { secretContext } from './webhook-delivery.js';
import { newWebhookSecret } from './webhook-sender.js';
import { presentDelivery, presentEndpoint } from './webhooks.presenter.js';
import * as repo from './webhooks.repo.js';

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
  });
  return {
    message: msg.webhookEndpointCreated,
    endpoint: await reread(ctx, actor, id),
    secret,
  };
}

export async function updateEndpoint(
  ctx: AppContext,
  actor: AuthUser,
  id: string,
  body: UpdateWebhookInput,
): Promise<WebhookEndpointReply> {
  if (body.url !== undefined) await checkReachable(ctx, body.url);
  if (!(await repo.updateEndpoint(ctx.db, actor.id, id, body))) {
    throw notFound(msg.webhookEndpointNotFound);
  }
  return { message: msg.webhookEndpointUpdated, endpoint: await reread(ctx, actor, id) };
}

export async function deleteEndpoint(ctx: AppContext, actor: AuthUser, id: string) {
  if (!(await repo.deleteEndpoint(ctx.db, actor.id, id))) {
    throw notFound(msg.webhookEndpointNotFound);
  }
  return msg.webhookEndpointDeleted;
}

/** A new secret at once; deliveries signed from now on use it. */
export async function rotateSecret(
  ctx: AppContext,
  actor: AuthUser,
  id: string,
): Promise<RotateWebhookSecretReply> {
  const secret = newWebhookSecret();
  const sealed = ctx.secretBox.seal(secret, secretContext(id));
  if (!(await repo.updateEndpoint(ctx.db, actor.id, id, { secret: sealed }))) {
    throw notFound(msg.webhookEndpointNotFound);
  }
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
