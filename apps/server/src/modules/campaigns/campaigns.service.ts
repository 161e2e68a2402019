import {
  CAMPAIGN_DETAIL_RECIPIENTS,
  defaultCampaignName,
  hasCta,
  hasDp,
  isInternational,
  MAX_RECIPIENTS,
  server as msg,
  CreateCampaignFieldsSchema,
  type CampaignTemplate,
  type CampaignDetail,
  type CampaignRecipients,
  type CampaignRecipientsPage,
  type CampaignList,
  type CampaignListFilters,
  type CampaignWithFiles,
  type CreateCampaignFields,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import { badRequest, conflict, notFound } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import * as ledger from '../credits/ledger.service.js';
import { canSee, isBelow, type Actor } from '../../policies/scope.js';
import { checkFile, commitFile, type StagedFile } from './campaign-files.js';
import type { CampaignUpload } from './campaigns.input.js';
import { presentCampaign, presentFile } from './campaigns.presenter.js';
import * as repo from './campaigns.repo.js';
import type { RecipientList } from './recipient-scan.js';
import { visibleCampaign } from './campaign-access.js';
import { recipientPage } from './campaign-actions.repo.js';
import { notifyAdminsAwaiting } from './approval-notice.js';

/** Campaign creation and reads (docs/product.md, Campaigns). */

export interface CheckedCampaign {
  fields: CreateCampaignFields;
  /** Kept numbers as sorted unique keys (recipient-scan.ts), with the form's counts. */
  recipients: RecipientList;
  /** The WhatsApp template it is sent as, once checked against the routed sender. */
  template?: CampaignTemplate;
}

const CTA_FIELDS = ['ctaCall', 'ctaCallText', 'ctaURL', 'ctaURLText'] as const;
const COUNTRY_FIELDS = ['countryName', 'countryCode'] as const;

/** A campaign whose fields arrived parsed already (the public API's JSON body). */
export interface ParsedCampaign {
  parsed: CreateCampaignFields;
  files: CampaignUpload['files'];
  recipients: RecipientList;
}

/** Everything that needs no database: fields, the credit type's rules, files' contents. */
export function checkUpload(upload: CampaignUpload | ParsedCampaign): CheckedCampaign {
  const fields =
    'parsed' in upload ? upload.parsed : CreateCampaignFieldsSchema.parse(upload.fields);
  const type = fields.creditType;
  const refuse = (field: string) => badRequest(msg.campaignFieldNotAllowed(field));
  if (!hasCta(type)) {
    const extra = CTA_FIELDS.find((f) => fields[f] !== undefined);
    if (extra) throw refuse(extra);
  } else if (
    (fields.ctaCall === undefined) !== (fields.ctaCallText === undefined) ||
    (fields.ctaURL === undefined) !== (fields.ctaURLText === undefined)
  ) {
    throw badRequest(msg.campaignCtaIncomplete);
  }
  if (isInternational(type)) {
    if (!fields.countryName || !fields.countryCode) throw badRequest(msg.campaignCountryRequired);
  } else {
    const extra = COUNTRY_FIELDS.find((f) => fields[f] !== undefined);
    if (extra) throw refuse(extra);
  }
  for (const file of upload.files) {
    if (file.kind === 'dp' && !hasDp(type)) throw refuse(file.field);
    if (file.kind === 'singleCreative' && !hasCta(type)) throw refuse(file.field);
    if (file.kind !== 'dp' && file.kind !== 'singleCreative' && hasCta(type)) {
      throw refuse(file.field);
    }
  }
  // `to` was scanned as it arrived (campaigns.input.ts): the contract's recipient rules.
  const { recipients } = upload;
  if (recipients.kept === 0) throw badRequest(msg.campaignNoRecipients);
  if (recipients.kept > MAX_RECIPIENTS) throw badRequest(msg.campaignTooManyRecipients);
  if (fields.templateValues !== undefined && fields.templateId === undefined) {
    throw refuse('templateValues');
  }
  return { fields, recipients };
}

/** The owner: the creator itself or a user strictly below it; 404 otherwise. */
export async function resolveOwner(ctx: AppContext, actor: AuthUser, email: string | undefined) {
  if (email === undefined || email === actor.email) {
    return { id: actor.id, email: actor.email, name: actor.name };
  }
  const target = await repo.findUserByEmail(ctx.db, email);
  if (!target || !isBelow(actor, target)) throw notFound(msg.userNotFound);
  // A blocked account is frozen: nothing is sent or charged on its behalf.
  if (target.status !== 'Active') throw conflict(msg.creditRecipientBlocked);
  return target;
}

/**
 * Checks each file's content, then puts each in the store under its final name. On error the
 * caller's `discardFiles` removes whatever got staged or stored.
 */
export async function commitFiles(store: FileStore, files: StagedFile[]) {
  const rows = [];
  const positions = new Map<string, number>();
  for (const file of files) {
    const type = checkFile(file);
    const position = positions.get(file.kind) ?? 0;
    positions.set(file.kind, position + 1);
    rows.push({ file, type, position });
  }
  const committed = [];
  for (const { file, type, position } of rows) {
    const storedName = await commitFile(store, file, type);
    committed.push({
      kind: file.kind,
      stored_name: storedName,
      original_name: file.originalName,
      mime: type.mime,
      size: file.size,
      position,
    });
  }
  return committed;
}

export type CommittedFile = Awaited<ReturnType<typeof commitFiles>>[number];

/**
 * The writes of one creation, in the caller's transaction: all or nothing. A `test` campaign
 * (made with a test API key, docs/api.md) meets the same checks, the balance's included, but is
 * charged nothing: no ledger entry and `charged_count` 0, so no refund can ever follow either.
 */
export async function insertCampaign(
  tx: Tx,
  actor: AuthUser,
  owner: { id: string; email: string; name: string },
  checked: CheckedCampaign,
  files: CommittedFile[],
  test = false,
): Promise<CampaignWithFiles> {
  const f = checked.fields;
  const count = checked.recipients.kept;
  const name = f.name ?? defaultCampaignName(f.message);
  const { id } = await repo.insertCampaign(tx, {
    user_id: owner.id,
    created_by: actor.id,
    credit_type: f.creditType,
    name,
    message: f.message,
    country_name: f.countryName ?? null,
    country_code: f.countryCode ?? null,
    cta_call: f.ctaCall ?? null,
    cta_call_text: f.ctaCallText ?? null,
    cta_url: f.ctaURL ?? null,
    cta_url_text: f.ctaURLText ?? null,
    template: checked.template ? JSON.stringify(checked.template) : null,
    recipient_count: count,
    charged_count: test ? 0 : count,
    test,
    send_at: f.sendAt ?? null,
  });
  await repo.insertRecipients(tx, id, checked.recipients.keys);
  await repo.insertFiles(
    tx,
    files.map((file) => ({ ...file, campaign_id: id })),
  );
  const charge = { userId: owner.id, creditType: f.creditType, count };
  if (test) await ledger.requireBalance(tx, charge);
  else {
    await ledger.debit(tx, {
      ...charge,
      actor,
      reason: msg.ledgerCampaignCharge({ name }),
      kind: 'campaign_debit',
      campaignId: id,
    });
  }
  // A new campaign is Submitted: it enters the Admins' approval queue.
  await notifyAdminsAwaiting(tx, { name, ownerEmail: owner.email }, actor.id);
  const row = await repo.getCampaign(tx, id);
  if (!row) throw new Error(`campaign ${id} vanished`);
  return { ...presentCampaign(row, actor), files: (await repo.filesOf(tx, id)).map(presentFile) };
}

export async function listCampaigns(
  ctx: AppContext,
  actor: Actor,
  filters: CampaignListFilters,
  ownerEmail?: string,
): Promise<CampaignList> {
  let ownerId: string | undefined;
  if (ownerEmail !== undefined) {
    const owner = await repo.findUserByEmail(ctx.db, ownerEmail);
    if (!owner || !canSee(actor, owner)) throw notFound(msg.userNotFound);
    ownerId = owner.id;
  }
  const rows = await repo.listCampaigns(ctx.db, actor, filters, ownerId);
  const page = rows.slice(0, filters.limit);
  const last = page.at(-1);
  return {
    campaigns: page.map((row) => presentCampaign(row, actor)),
    nextCursor: rows.length > filters.limit && last ? last.id : null,
  };
}

export async function getCampaign(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<CampaignDetail> {
  const row = await visibleCampaign(ctx.db, actor, id);
  // A bounded first slice: one more than shown tells whether more follow.
  const [files, first] = await Promise.all([
    repo.filesOf(ctx.db, id),
    recipientPage(ctx.db, id, undefined, CAMPAIGN_DETAIL_RECIPIENTS + 1),
  ]);
  const recipients = first.slice(0, CAMPAIGN_DETAIL_RECIPIENTS);
  return {
    ...presentCampaign(row, actor),
    files: files.map(presentFile),
    recipients,
    recipientsNextCursor: first.length > recipients.length ? (recipients.at(-1) ?? null) : null,
  };
}

/** GET /api/campaigns/{id}/recipients: one keyset page, with the detail's scope (404 outside). */
export async function listRecipients(
  ctx: AppContext,
  actor: Actor,
  id: string,
  q: CampaignRecipientsPage,
): Promise<CampaignRecipients> {
  await visibleCampaign(ctx.db, actor, id);
  const rows = await recipientPage(ctx.db, id, q.cursor, q.limit + 1);
  const recipients = rows.slice(0, q.limit);
  return {
    recipients,
    nextCursor: rows.length > q.limit ? (recipients.at(-1) ?? null) : null,
  };
}
