import { sql } from 'kysely';
import type {
  WebhookAnyEventType,
  WebhookDisabledReason,
  WebhookEventType,
} from '@herald/contract';
import type { DbOrTx, Tx } from '../../db/database.js';

/**
 * Queries of webhook endpoints, their settings and delivery log (docs/api.md, Webhooks). Every
 * read of endpoints names its owner; the service decides who asks. No read returns the sealed
 * secret but `findForDelivery`, which the delivery job opens.
 */

const ENDPOINT_COLUMNS = [
  'e.id',
  'e.user_id',
  'e.url',
  'e.description',
  'e.events',
  'e.enabled',
  'e.disabled_reason',
  'e.failing_since',
  'e.created_at',
] as const;

function endpoints(db: DbOrTx) {
  return db
    .selectFrom('webhook_endpoints as e')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('webhook_deliveries as d')
          .select(['d.created_at as last_at', 'd.status_code as last_status', 'd.ok as last_ok'])
          .whereRef('d.endpoint_id', '=', 'e.id')
          .orderBy('d.id', 'desc')
          .limit(1)
          .as('last'),
      (join) => join.onTrue(),
    )
    .select(ENDPOINT_COLUMNS)
    .select(['last.last_at', 'last.last_status', 'last.last_ok']);
}

/** The owner's endpoints, newest first (at most WEBHOOK_ENDPOINTS_PER_USER of them). */
export function listForOwner(db: DbOrTx, userId: string) {
  return endpoints(db)
    .where('e.user_id', '=', userId)
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .execute();
}

export type EndpointRow = Awaited<ReturnType<typeof listForOwner>>[number];

export function findOwned(
  db: DbOrTx,
  userId: string,
  id: string,
): Promise<EndpointRow | undefined> {
  return endpoints(db).where('e.user_id', '=', userId).where('e.id', '=', id).executeTakeFirst();
}

/** The fields an edit changes, row-locked for the rest of the caller's transaction. */
export function lockOwned(tx: Tx, userId: string, id: string) {
  return tx
    .selectFrom('webhook_endpoints')
    .select(['url', 'description', 'events', 'enabled'])
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** Locks the owner's row, so two creations at once count each other, and counts its endpoints. */
export async function lockOwnerAndCount(tx: Tx, userId: string): Promise<number> {
  await tx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
  const { n } = await tx
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export interface NewEndpoint {
  id: string;
  userId: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  sealedSecret: string;
}

export async function insertEndpoint(tx: Tx, e: NewEndpoint): Promise<void> {
  await tx
    .insertInto('webhook_endpoints')
    .values({
      id: e.id,
      user_id: e.userId,
      url: e.url,
      description: e.description,
      events: e.events,
      secret: e.sealedSecret,
    })
    .execute();
}

export interface EndpointChanges {
  url?: string;
  description?: string;
  events?: WebhookEventType[];
  enabled?: boolean;
  secret?: string;
}

/** Saves the owner's changes; enabling clears the reason and the failure streak. */
export async function updateEndpoint(
  db: DbOrTx,
  userId: string,
  id: string,
  c: EndpointChanges,
): Promise<boolean> {
  const res = await db
    .updateTable('webhook_endpoints')
    .set({
      ...(c.url !== undefined && { url: c.url }),
      ...(c.description !== undefined && { description: c.description }),
      ...(c.events !== undefined && { events: c.events }),
      ...(c.secret !== undefined && { secret: c.secret }),
      ...(c.enabled === true && { enabled: true, disabled_reason: null, failing_since: null }),
      ...(c.enabled === false && { enabled: false, disabled_reason: 'manual' as const }),
      updated_at: sql`now()`,
    })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function deleteEndpoint(db: DbOrTx, userId: string, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom('webhook_endpoints')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function getThreshold(db: DbOrTx, userId: string): Promise<number | null> {
  const row = await db
    .selectFrom('webhook_settings')
    .select('low_balance_threshold')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.low_balance_threshold ?? null;
}

export async function setThreshold(
  db: DbOrTx,
  userId: string,
  threshold: number | null,
): Promise<void> {
  await db
    .insertInto('webhook_settings')
    .values({ user_id: userId, low_balance_threshold: threshold })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ low_balance_threshold: threshold }))
    .execute();
}

/**
 * Writes an event and its delivery jobs in the caller's transaction (webhook_emit, migration
 * 0035); answers its id, or null when no enabled endpoint takes it.
 */
export async function emit(
  db: DbOrTx,
  userId: string,
  type: WebhookAnyEventType,
  data: unknown,
  endpointId: string | null = null,
): Promise<string | null> {
  const { rows } = await sql<{ id: string | null }>`
    SELECT webhook_emit(${userId}::uuid, ${type}, ${JSON.stringify(data)}::jsonb,
                        ${endpointId}::uuid) AS id`.execute(db);
  return rows[0]?.id ?? null;
}

/** One page of an endpoint's attempts, newest first, before `cursor` (an attempt's id). */
export function listDeliveries(
  db: DbOrTx,
  endpointId: string,
  cursor: string | undefined,
  limit: number,
) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      'ev.type',
      'd.attempt',
      'd.status_code',
      'd.duration_ms',
      'd.ok',
      'd.error',
      'd.created_at',
      'd.next_attempt_at',
    ])
    .where('d.endpoint_id', '=', endpointId)
    .$if(cursor !== undefined, (q) => q.where('d.id', '<', cursor!))
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
}

export type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>[number];

/** What one delivery attempt needs: the endpoint (with its sealed secret) and the event. */
export function findForDelivery(db: DbOrTx, endpointId: string, eventId: string) {
  return db
    .selectFrom('webhook_endpoints as e')
    .innerJoin('webhook_events as ev', 'ev.user_id', 'e.user_id')
    .select([
      'e.id',
      'e.user_id',
      'e.url',
      'e.secret',
      'e.enabled',
      'ev.id as event_id',
      'ev.type',
      'ev.data',
      'ev.created_at as event_at',
    ])
    .where('e.id', '=', endpointId)
    .where('ev.id', '=', eventId)
    .executeTakeFirst();
}

export interface NewAttempt {
  endpointId: string;
  eventId: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  ok: boolean;
  error: string | null;
  nextAttemptAt: Date | null;
}

export async function insertAttempt(tx: Tx, a: NewAttempt): Promise<void> {
  await tx
    .insertInto('webhook_deliveries')
    .values({
      endpoint_id: a.endpointId,
      event_id: a.eventId,
      attempt: a.attempt,
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      ok: a.ok,
      error: a.error,
      next_attempt_at: a.nextAttemptAt,
    })
    .execute();
}

/** A success ends the failure streak. */
export async function markSucceeded(tx: Tx, endpointId: string): Promise<void> {
  await tx
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', '=', endpointId)
    .where('failing_since', 'is not', null)
    .execute();
}

/**
 * A failure starts the streak (or continues it); answers how long it has lasted in seconds and
 * whether the endpoint is still enabled.
 */
export async function markFailed(tx: Tx, endpointId: string) {
  return tx
    .updateTable('webhook_endpoints')
    .set({ failing_since: sql`coalesce(failing_since, now())` })
    .where('id', '=', endpointId)
    .returning([
      'enabled',
      'url',
      'user_id',
      sql<number>`extract(epoch from now() - failing_since)::float8`.as('failing_seconds'),
    ])
    .executeTakeFirst();
}

/** Turns an endpoint off for `reason`; answers whether it was on. */
export async function disable(
  tx: Tx,
  endpointId: string,
  reason: Exclude<WebhookDisabledReason, 'manual'>,
): Promise<boolean> {
  const res = await tx
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, updated_at: sql`now()` })
    .where('id', '=', endpointId)
    .where('enabled', '=', true)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Events older than `days` go, with their attempts. */
export async function pruneEvents(db: DbOrTx, days: number): Promise<number> {
  const res = await db
    .deleteFrom('webhook_events')
    .where('created_at', '<', sql<Date>`now() - make_interval(days => ${days})`)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
