import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { IDEMPOTENCY_KEY_MAX, server as msg } from '@herald/contract';
import type { Db, Tx } from '../db/database.js';
import { badRequest, conflict } from '../lib/app-error.js';
import { claimKey, deleteKeysBefore, findKey, storeReply } from './idempotency.repo.js';

/**
 * Idempotency-Key support for write endpoints (Stripe's rules; docs/product.md, Credits and the
 * ledger): the key is claimed inside the same transaction as the writes it guards, and the reply is
 * stored in that transaction too. A retry with the same key and request replays the reply and
 * writes nothing; with another request it is refused. A failure rolls everything back, the claim
 * included, so nothing is stored for a request that did not succeed.
 */

/** The header's value, or undefined when absent; 400 when empty or too long. */
export function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  const value = req.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > IDEMPOTENCY_KEY_MAX) {
    throw badRequest(msg.idempotencyKeyInvalid);
  }
  return value;
}

/** JSON with object keys sorted at every level, so equal requests hash equally. */
export function canonicalJson(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v !== null && typeof v === 'object') {
      const obj = v as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(obj)
          .sort()
          .filter((k) => obj[k] !== undefined)
          .map((k) => [k, sortKeys(obj[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sortKeys(value));
}

export function requestHash(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

export interface IdempotentCall<T, S extends number> {
  userId: string;
  /** The endpoint's success status: the one status ever stored and replayed. */
  status: S;
  /** The key; undefined runs the work once without any bookkeeping. */
  key: string | undefined;
  /** Names the endpoint, so one key cannot be replayed on another endpoint. */
  endpoint: string;
  /** The parsed request; its canonical hash detects a key reused for another request. */
  request: unknown;
  /** Re-validates a stored reply before it is sent again. */
  replySchema: z.ZodType<T>;
}

export interface IdempotentResult<T, S extends number> {
  status: S;
  body: T;
  /** True when this is the stored reply of an earlier request. */
  replayed: boolean;
}

/**
 * Runs `work` in one transaction, guarded by the key. A concurrent request with the same key
 * blocks on the key's unique index until the first commits (then replays it) or rolls back
 * (then runs itself), so two requests never both execute.
 */
export async function runIdempotent<T, S extends number>(
  db: Db,
  call: IdempotentCall<T, S>,
  work: (tx: Tx) => Promise<T>,
): Promise<IdempotentResult<T, S>> {
  const { key, status } = call;
  if (key === undefined) {
    const body = await db.transaction().execute(work);
    return { status, body, replayed: false };
  }
  const hash = requestHash(call.request);
  return db.transaction().execute(async (tx) => {
    const claimed = await claimKey(tx, {
      userId: call.userId,
      key,
      endpoint: call.endpoint,
      requestHash: hash,
    }).catch((err: unknown) => {
      // The first request still holds the key past the pool's lock_timeout.
      if (isLockTimeout(err)) throw conflict(msg.idempotencyInProgress);
      throw err;
    });
    if (!claimed) return replay(tx, call, key, hash);

    const body = await work(tx);
    await storeReply(tx, { userId: call.userId, key }, status, body);
    return { status, body, replayed: false };
  });
}

async function replay<T, S extends number>(
  tx: Tx,
  call: IdempotentCall<T, S>,
  key: string,
  hash: string,
): Promise<IdempotentResult<T, S>> {
  // A new statement: under READ COMMITTED it sees the row the other request committed.
  const row = await findKey(tx, { userId: call.userId, key });
  if (row && (row.endpoint !== call.endpoint || row.request_hash !== hash)) {
    throw conflict(msg.idempotencyMismatch);
  }
  // The reply is stored before the claim commits, so a committed row without one, or a row
  // that vanished (pruned) since the claim failed, means the key is not usable right now.
  if (!row || row.status === null) throw conflict(msg.idempotencyInProgress);
  if (row.status !== call.status)
    throw new Error(`stored status ${row.status} for ${call.endpoint}`);
  return { status: call.status, body: call.replySchema.parse(row.response), replayed: true };
}

function isLockTimeout(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '55P03';
}

/** How long a key is kept: a retry within this window replays (Stripe keeps keys 24 hours). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes keys older than `ttlMs` (on the created_at index); returns how many went. The
 * `prune-idempotency-keys` job runs it hourly, so the table holds about a day of keys.
 */
export async function pruneIdempotencyKeys(db: Db, ttlMs = IDEMPOTENCY_KEY_TTL_MS) {
  return deleteKeysBefore(db, new Date(Date.now() - ttlMs));
}
