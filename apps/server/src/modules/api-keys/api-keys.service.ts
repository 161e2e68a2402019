import {
  API_KEYS_PER_USER,
  server as msg,
  type ApiKeyPage,
  type ApiKeysFilters,
  type CreateApiKeyBody,
  type CreateApiKeyReply,
} from '@herald/contract';
import type { Db } from '../../db/database.js';
import { hashApiKey, newApiKey } from '../../lib/api-keys.js';
import { conflict, notFound } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { presentApiKey } from './api-keys.presenter.js';
import * as repo from './api-keys.repo.js';
import { recordAudit, type AuditActor } from '../audit/index.js';

/**
 * API keys' rules (docs/api.md). Every signed-in user makes and revokes its own keys; the Admin
 * also lists and revokes every user's. A key outside the caller's reach answers 404, as if it
 * did not exist. The secret is made here, answered once, and only its hash is stored.
 */

export async function listApiKeys(db: Db, actor: AuthUser, q: ApiKeysFilters): Promise<ApiKeyPage> {
  const owner = actor.role === 'Admin' ? undefined : actor.id;
  const rows = await repo.listPage(db, owner, q.cursor, q.limit + 1);
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    keys: page.map(presentApiKey),
    nextCursor: more && last ? `${last.cursor_micros}_${last.id}` : null,
  };
}

/**
 * A new key of the caller's own. It carries the token version of the session that made it, so
 * it ends with that session's kind of revocation: a block or a password change.
 */
export async function createApiKey(
  db: Db,
  actor: AuthUser,
  audit: AuditActor,
  body: { name: string; kind: CreateApiKeyBody['kind'] },
): Promise<CreateApiKeyReply> {
  const secret = newApiKey(body.kind);
  const id = await db.transaction().execute(async (tx) => {
    if ((await repo.lockOwnerAndCount(tx, actor.id)) >= API_KEYS_PER_USER) {
      throw conflict(msg.apiKeysTooMany(API_KEYS_PER_USER));
    }
    const keyId = await repo.insertKey(tx, {
      userId: actor.id,
      name: body.name,
      kind: body.kind,
      hash: hashApiKey(secret),
      last4: secret.slice(-4),
      tokenVersion: actor.tokenVersion,
    });
    // The key's value never goes in the entry; its name and kind do.
    await recordAudit(tx, {
      actor: audit,
      action: 'api_key.create',
      target: { type: 'api_key', id: keyId, label: body.name, subjectUserId: actor.id },
      changes: {
        name: { before: null, after: body.name },
        kind: { before: null, after: body.kind },
      },
    });
    return keyId;
  });
  const row = await repo.findById(db, id);
  if (!row) throw notFound(msg.apiKeyNotFound);
  return { message: msg.apiKeyCreated(row.name), key: presentApiKey(row), secret };
}

/** Revokes a key: the owner's own, or any for the Admin. It stops working at once. */
export async function revokeApiKey(
  db: Db,
  actor: AuthUser,
  audit: AuditActor,
  id: string,
): Promise<string> {
  const row = await repo.findById(db, id);
  if (!row || (row.user_id !== actor.id && actor.role !== 'Admin')) {
    throw notFound(msg.apiKeyNotFound);
  }
  await db.transaction().execute(async (tx) => {
    // Revoked a moment ago by another request: that one wrote the entry.
    if (!(await repo.deleteKey(tx, row.id))) throw notFound(msg.apiKeyNotFound);
    await recordAudit(tx, {
      actor: audit,
      action: 'api_key.revoke',
      target: { type: 'api_key', id: row.id, label: row.name, subjectUserId: row.user_id },
      changes: { kind: { before: row.kind, after: null } },
    });
  });
  return msg.apiKeyRevoked(row.name);
}
