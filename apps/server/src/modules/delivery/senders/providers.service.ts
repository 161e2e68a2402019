import { randomBytes, randomUUID } from 'node:crypto';
import {
  PROVIDER_FIELDS,
  providerFieldsProblem,
  server as msg,
  type CreateProviderBody,
  type Provider,
  type ProviderKind,
  type UpdateProviderBody,
  type AuditChanges,
} from '@herald/contract';
import type { AppContext } from '../../../context.js';
import { isUniqueViolation } from '../../../db/pg-errors.js';
import { badRequest, conflict, notFound } from '../../../lib/app-error.js';
import type { Actor } from '../../../policies/scope.js';
import {
  CALLBACK_TOKEN_FIELD,
  callbackTokenOf,
  callbackUrlOf,
  secretContext,
} from '../providers/stored-provider.js';
import { auditChanges, recordAudit, type AuditActor } from '../../audit/index.js';
import * as repo from './providers.repo.js';
import { requireAdmin } from './senders.service.js';

/**
 * Providers (Admin): add, edit, disable and remove the accounts messages leave through
 * (docs/delivery.md, Providers in the database). Secrets are sealed before they are written
 * and never leave the server again: an answer carries only their last 4 characters.
 */

const LAST = 4;

function present(ctx: AppContext, row: repo.ProviderRow): Provider {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    builtin: row.builtin,
    enabled: row.enabled,
    settings: row.settings,
    secrets: row.secret_hints,
    callbackUrl: callbackUrlOf(ctx.config.publicUrl, row, callbackTokenOf(ctx.secretBox, row)),
    senderCount: row.sender_count,
    createdAt: row.created_at.toISOString(),
  };
}

export async function listProviders(ctx: AppContext, actor: Actor): Promise<Provider[]> {
  requireAdmin(actor);
  return (await repo.listProviders(ctx.db)).map((r) => present(ctx, r));
}

async function presentOne(ctx: AppContext, id: string): Promise<Provider> {
  const row = await repo.getProvider(ctx.db, id);
  if (!row) throw notFound(msg.providerNotFound);
  return present(ctx, row);
}

/** The settings the kind knows, without empty ones. */
function settingsOf(kind: ProviderKind, given: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const f of PROVIDER_FIELDS[kind]) {
    const v = given[f.name];
    if (!f.secret && v) kept[f.name] = v;
  }
  return kept;
}

/** The given secrets sealed over the saved ones (an empty one keeps what was saved). */
function sealSecrets(
  ctx: AppContext,
  id: string,
  given: Record<string, string>,
  saved: { secrets: Record<string, string>; hints: Record<string, string> },
) {
  const secrets = { ...saved.secrets };
  const hints = { ...saved.hints };
  for (const [field, value] of Object.entries(given)) {
    if (!value) continue;
    secrets[field] = ctx.secretBox.seal(value, secretContext(id, field));
    hints[field] = value.slice(-LAST);
  }
  return { secrets, secretHints: hints };
}

/**
 * What a provider's entry compares: never its secrets, their hints or its callback token. Each
 * setting is a field of its own (`settings.url`), so an entry names the one that changed.
 */
function auditedFields(p: {
  name: string;
  kind: string;
  enabled: boolean;
  settings: Record<string, string>;
}): Record<string, unknown> {
  const fields: Record<string, unknown> = { name: p.name, kind: p.kind, enabled: p.enabled };
  for (const [key, value] of Object.entries(p.settings)) fields[`settings.${key}`] = value;
  return fields;
}

/** The secret fields given a new value, by name only: the entry shows they were replaced. */
function replacedSecrets(given: Record<string, string>): AuditChanges {
  const names = Object.keys(given).filter((field) => given[field]);
  return names.length > 0 ? { replaced: { before: null, after: names.sort() } } : {};
}

const providerTarget = (id: string, name: string) => ({
  type: 'provider' as const,
  id,
  label: name,
  subjectUserId: null,
});

const nameTaken = (err: unknown) =>
  isUniqueViolation(err) ? conflict(msg.providerNameTaken) : err;

export async function createProvider(
  ctx: AppContext,
  actor: Actor,
  body: CreateProviderBody,
  auditActor: AuditActor,
): Promise<Provider> {
  requireAdmin(actor);
  const id = randomUUID();
  const settings = body.settings ?? {};
  const token = randomBytes(32).toString('base64url');
  const write = {
    name: body.name,
    enabled: body.enabled ?? true,
    settings: settingsOf(body.kind, settings),
  };
  await ctx.db
    .transaction()
    .execute(async (tx) => {
      await repo.insertProvider(tx, id, body.kind, {
        ...write,
        ...sealSecrets(ctx, id, body.secrets ?? {}, { secrets: {}, hints: {} }),
        callbackToken: ctx.secretBox.seal(token, secretContext(id, CALLBACK_TOKEN_FIELD)),
      });
      await recordAudit(tx, {
        actor: auditActor,
        action: 'provider.create',
        target: providerTarget(id, body.name),
        changes: {
          ...auditChanges(null, auditedFields({ ...write, kind: body.kind })),
          ...replacedSecrets(body.secrets ?? {}),
        },
      });
    })
    .catch((err: unknown) => {
      throw nameTaken(err);
    });
  return presentOne(ctx, id);
}

export async function updateProvider(
  ctx: AppContext,
  actor: Actor,
  id: string,
  body: UpdateProviderBody,
  auditActor: AuditActor,
): Promise<Provider> {
  requireAdmin(actor);
  const row = await repo.getProvider(ctx.db, id);
  if (!row) throw notFound(msg.providerNotFound);
  if (row.builtin) throw conflict(msg.providerBuiltin);
  const given = { settings: body.settings ?? {}, secrets: body.secrets ?? {} };
  const problem = providerFieldsProblem(row.kind, given.settings, given.secrets, {
    creating: false,
  });
  if (problem) throw badRequest(problem);
  const write = {
    name: body.name,
    enabled: body.enabled ?? true,
    settings: settingsOf(row.kind, given.settings),
  };
  const updated = await ctx.db
    .transaction()
    .execute(async (tx) => {
      const saved = { secrets: row.secrets, hints: row.secret_hints };
      const done = await repo.updateProvider(tx, id, {
        ...write,
        ...sealSecrets(ctx, id, given.secrets, saved),
      });
      if (!done) return false;
      await recordAudit(tx, {
        actor: auditActor,
        action: 'provider.update',
        target: providerTarget(id, body.name),
        changes: {
          ...auditChanges(auditedFields(row), auditedFields({ ...write, kind: row.kind })),
          ...replacedSecrets(given.secrets),
        },
      });
      return true;
    })
    .catch((err: unknown) => {
      throw nameTaken(err);
    });
  if (!updated) throw notFound(msg.providerNotFound);
  ctx.delivery.forget(row.key);
  return presentOne(ctx, id);
}

export async function deleteProvider(
  ctx: AppContext,
  actor: Actor,
  id: string,
  auditActor: AuditActor,
): Promise<void> {
  requireAdmin(actor);
  const row = await repo.getProvider(ctx.db, id);
  if (!row) throw notFound(msg.providerNotFound);
  if (row.builtin) throw conflict(msg.providerBuiltin);
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await repo.deleteProvider(tx, id))) throw conflict(msg.providerHasSenders);
    await recordAudit(tx, {
      actor: auditActor,
      action: 'provider.delete',
      target: providerTarget(id, row.name),
      changes: auditChanges(auditedFields(row), null),
    });
  });
  ctx.delivery.forget(row.key);
}
