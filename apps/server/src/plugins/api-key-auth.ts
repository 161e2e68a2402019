import type { FastifyReply } from 'fastify';
import {
  API_KEY_LAST_USED_STEP_SECONDS,
  RATE_LIMITS,
  server as msg,
  type ApiKeyKind,
} from '@herald/contract';
import type { Db } from '../db/database.js';
import { hashApiKey, isWellFormedApiKey } from '../lib/api-keys.js';
import { tooMany, unauthorized } from '../lib/app-error.js';
import { findKeyByHash, touchLastUsed } from './api-key-auth.repo.js';
import type { AuthState, AuthUser } from './auth-state.js';
import type { RateLimiter } from './rate-limit.js';

/** What the key path of the auth hook needs from the app's services. */
export interface ApiKeyAuthDeps {
  db: Db;
  authState: AuthState;
  rateLimiter: RateLimiter;
}

export interface ApiKeyCaller {
  keyId: string;
  /** A test key's campaigns charge nothing and go to the simulator (docs/api.md, Test keys). */
  kind: ApiKeyKind;
  user: AuthUser;
}

/**
 * Authenticates `Authorization: Bearer hk_...` (docs/api.md). The key's row is read on every
 * request, never cached, so a revoked key (its row deleted) or a deleted user's key (deleted
 * with the user) answers 401 at once on every instance. The user comes from the same AuthState
 * as a session's, and the key carries the token version its user had when it was made: a block
 * or a password change, which raise the version, end the key as they end sessions. Each request
 * is counted against the key's own limit, and the quota is told in RateLimit-* headers.
 */
export async function authenticateApiKey(
  deps: ApiKeyAuthDeps,
  key: string,
  reply: FastifyReply,
): Promise<ApiKeyCaller> {
  if (!isWellFormedApiKey(key)) throw unauthorized(msg.apiKeyInvalid);
  const row = await findKeyByHash(deps.db, hashApiKey(key));
  if (!row) throw unauthorized(msg.apiKeyInvalid);
  const user = deps.authState.peek(row.user_id) ?? (await deps.authState.get(row.user_id));
  if (!user || user.status !== 'Active' || user.tokenVersion !== row.token_version) {
    throw unauthorized(msg.apiKeyInvalid);
  }
  const quota = await deps.rateLimiter.quota(`api-key:${row.id}`, RATE_LIMITS.apiKeyRequests);
  reply.header('ratelimit-limit', String(quota.limit));
  reply.header('ratelimit-remaining', String(quota.remaining));
  reply.header('ratelimit-reset', String(quota.resetSeconds));
  if (quota.refused) throw tooMany(quota.resetSeconds);
  const step = API_KEY_LAST_USED_STEP_SECONDS;
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() >= step * 1000) {
    await touchLastUsed(deps.db, row.id, step);
  }
  return { keyId: row.id, kind: row.kind, user };
}
