import {
  server as msg,
  SUPPRESSION_IMPORT_MAX_ROWS,
  type AddSuppressionReply,
  type OptOutKeyword,
  type SuppressionCheckBody,
  type SuppressionCheckReply,
  type SuppressionImportReply,
  type SuppressionPage,
  type SuppressionsFilters,
  type AuditChanges,
} from '@herald/contract';
import type { Db, DbOrTx, Tx } from '../../db/database.js';
import { badRequest, conflict, notFound } from '../../lib/app-error.js';
import { isBelow, type Actor } from '../../policies/scope.js';
import {
  csvText,
  EXPORT_HEADER,
  MalformedCsv,
  readNumbers,
  TooManyRows,
} from './suppressions-csv.js';
import { exportCells, presentSuppression } from './suppressions.presenter.js';
import * as repo from './suppressions.repo.js';
import { recordAudit, type AuditActor } from '../audit/index.js';

/**
 * A suppression's audit entry (docs/audit.md), for the list's own screen and API only: a
 * person's STOP or START reply and the provider's opt-out are not an account's action.
 */
function recordSuppression(
  tx: Tx,
  audit: AuditActor,
  action: 'suppression.add' | 'suppression.remove',
  entry: { id: string | null; phone: string | null; ownerId: string },
  changes: AuditChanges,
) {
  return recordAudit(tx, {
    actor: audit,
    action,
    target: { type: 'suppression', id: entry.id, label: entry.phone, subjectUserId: entry.ownerId },
    changes,
  });
}

/**
 * The suppression list's rules (docs/product.md, Opt-outs). Every role manages its own list;
 * the Admin also reads everyone's and removes any entry. An entry outside the caller's reach
 * answers 404, as if it did not exist. Adding a number already listed answers 409 with a
 * message naming it, so a person knows it was there; imports and keywords skip such numbers.
 */

/** Whose entries a list or an export shows: the caller's own, or for the Admin any owner's. */
async function ownerFilter(db: DbOrTx, actor: Actor, ownerId: string | undefined) {
  if (actor.role !== 'Admin') {
    if (ownerId !== undefined && ownerId !== actor.id) throw notFound(msg.userNotFound);
    return actor.id;
  }
  if (ownerId !== undefined && !(await repo.findUser(db, { id: ownerId }))) {
    throw notFound(msg.userNotFound);
  }
  return ownerId;
}

export async function listSuppressions(
  db: Db,
  actor: Actor,
  q: SuppressionsFilters,
): Promise<SuppressionPage> {
  const ownerId = await ownerFilter(db, actor, q.ownerId);
  const rows = await repo.listPage(db, { ownerId, search: q.search }, q.cursor, q.limit + 1);
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    suppressions: page.map(presentSuppression),
    nextCursor: more && last ? `${last.cursor_micros}_${last.id}` : null,
  };
}

const EXPORT_BATCH = 5_000;

/** The CSV of what the filters show, read in keyset batches as the client takes it. */
export async function exportSuppressions(
  db: Db,
  actor: Actor,
  q: { search?: string | undefined; ownerId?: string | undefined },
): Promise<AsyncGenerator<string>> {
  const ownerId = await ownerFilter(db, actor, q.ownerId);
  const filter = { ownerId, search: q.search };
  return (async function* () {
    yield csvText([[...EXPORT_HEADER]]);
    let cursor: repo.SuppressionCursor | undefined;
    for (;;) {
      const rows = await repo.listPage(db, filter, cursor, EXPORT_BATCH);
      if (rows.length > 0) yield csvText(rows.map(exportCells));
      const last = rows.at(-1);
      if (rows.length < EXPORT_BATCH || !last) return;
      cursor = { micros: last.cursor_micros, id: last.id };
    }
  })();
}

export function addSuppression(
  db: Db,
  actor: Actor,
  audit: AuditActor,
  phone: string,
): Promise<AddSuppressionReply> {
  return db.transaction().execute((tx) => addSuppressionIn(tx, actor, audit, phone));
}

/** Adds a number to the caller's list in the caller's transaction (the public API's idempotent add). */
export async function addSuppressionIn(
  tx: Tx,
  actor: Actor,
  audit: AuditActor,
  phone: string,
): Promise<AddSuppressionReply> {
  const id = await repo.insertOne(tx, actor.id, phone, 'manual');
  if (id === undefined) throw conflict(msg.suppressionExists(phone));
  const row = await repo.findById(tx, id);
  if (!row) throw notFound(msg.suppressionNotFound);
  await recordSuppression(
    tx,
    audit,
    'suppression.add',
    { id, phone, ownerId: actor.id },
    { source: { before: null, after: 'manual' } },
  );
  return { message: msg.suppressionAdded(phone), suppression: presentSuppression(row) };
}

/** DELETE /api/v1/suppressions/{number}: the caller's own entry for the number, else 404. */
export async function removeOwnSuppression(
  db: Db,
  actor: Actor,
  audit: AuditActor,
  phone: string,
): Promise<string> {
  await db.transaction().execute(async (tx) => {
    const id = await repo.deleteByPhone(tx, actor.id, phone);
    if (id === undefined) throw notFound(msg.suppressionNotFound);
    await recordSuppression(tx, audit, 'suppression.remove', { id, phone, ownerId: actor.id }, {});
  });
  return msg.suppressionRemoved(phone);
}

export async function removeSuppression(
  db: Db,
  actor: Actor,
  audit: AuditActor,
  id: string,
): Promise<string> {
  return db.transaction().execute(async (tx) => {
    const row = await repo.findById(tx, id);
    if (!row || (actor.role !== 'Admin' && row.owner_id !== actor.id)) {
      throw notFound(msg.suppressionNotFound);
    }
    // Removed a moment ago by another request: that one wrote the entry.
    if (!(await repo.deleteById(tx, id))) throw notFound(msg.suppressionNotFound);
    await recordSuppression(
      tx,
      audit,
      'suppression.remove',
      { id, phone: row.phone, ownerId: row.owner_id },
      { source: { before: row.source, after: null } },
    );
    return msg.suppressionRemoved(row.phone);
  });
}

/** Imports a CSV into the caller's list: all its numbers in one statement, or none. */
export async function importSuppressions(
  db: Db,
  actor: Actor,
  audit: AuditActor,
  bytes: Buffer,
): Promise<SuppressionImportReply> {
  let read;
  try {
    read = readNumbers(bytes);
  } catch (err) {
    if (err instanceof MalformedCsv) throw badRequest(msg.suppressionImportMalformed);
    if (err instanceof TooManyRows)
      throw badRequest(msg.suppressionImportTooManyRows(SUPPRESSION_IMPORT_MAX_ROWS));
    throw err;
  }
  // One entry for the whole import, with how many numbers it added (none: nothing changed).
  const added = await db.transaction().execute(async (tx) => {
    const n = await repo.insertMany(tx, actor.id, read.phones, 'import');
    if (n > 0) {
      await recordSuppression(
        tx,
        audit,
        'suppression.add',
        { id: null, phone: null, ownerId: actor.id },
        { source: { before: null, after: 'import' }, added: { before: null, after: n } },
      );
    }
    return n;
  });
  const skipped = read.phones.length - added + read.repeated;
  return {
    message: msg.suppressionImportDone(added, skipped, read.invalid),
    added,
    skipped,
    invalid: read.invalid,
  };
}

/**
 * How many of a campaign's numbers its owner suppressed: the caller's, or those of the user it
 * picked in Campaign For (strictly below it, as a campaign's owner must be; 404 otherwise).
 */
export async function checkSuppressed(
  db: Db,
  actor: Actor & { email: string },
  body: SuppressionCheckBody,
): Promise<SuppressionCheckReply> {
  let ownerId = actor.id;
  if (body.userEmail !== undefined && body.userEmail !== actor.email) {
    const owner = await repo.findUser(db, { email: body.userEmail });
    if (!owner || !isBelow(actor, owner)) throw notFound(msg.userNotFound);
    ownerId = owner.id;
  }
  return { suppressed: await repo.countSuppressed(db, ownerId, body.numbers) };
}

/**
 * The provider said these recipients stopped the sender's messages (WhatsApp 131050): each
 * number goes on its campaign owner's list, in the caller's transaction (the one writing the
 * results or status events), in one statement.
 */
export function suppressFromProvider(
  tx: DbOrTx,
  pairs: readonly { campaignId: string; phone: string }[],
): Promise<void> {
  return repo.insertForCampaigns(tx, pairs, 'provider');
}

/**
 * A person's STOP or START reply (contract opt-out.ts): adds the number to, or removes it from,
 * the list of the account whose campaign reached it. Repeats change nothing.
 */
export async function applyOptOutKeyword(
  tx: Tx,
  ownerId: string,
  phone: string,
  keyword: OptOutKeyword,
): Promise<void> {
  if (keyword === 'stop') await repo.insertOne(tx, ownerId, phone, 'keyword');
  else await repo.deleteByPhone(tx, ownerId, phone);
}
