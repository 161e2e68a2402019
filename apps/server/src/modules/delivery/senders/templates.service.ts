import {
  server as msg,
  TEMPLATE_LIMITS,
  fillTemplate,
  templateValuesProblem,
  templateVariableCount,
  type CampaignTemplate,
  type CreateTemplateBody,
  type CreditType,
  type SenderTemplate,
} from '@herald/contract';
import type { AppContext } from '../../../context.js';
import type { DbOrTx } from '../../../db/database.js';
import { isUniqueViolation } from '../../../db/pg-errors.js';
import { badRequest, conflict, notFound } from '../../../lib/app-error.js';
import type { Actor } from '../../../policies/scope.js';
import { auditChanges, recordAudit, type AuditActor } from '../../audit/index.js';
import { getSender } from './senders.repo.js';
import { requireAdmin } from './senders.service.js';
import * as repo from './templates.repo.js';

/**
 * WhatsApp templates (docs/delivery.md, Templates): the Admin keeps each WhatsApp sender's
 * approved templates; a campaign form offers those of the sender its credit type goes
 * through, and creation checks the chosen one and its values (`campaignTemplate`).
 */

type Row = Awaited<ReturnType<typeof repo.listTemplates>>[number];

function present(row: Row): SenderTemplate {
  return {
    id: row.id,
    senderId: row.sender_id,
    name: row.name,
    language: row.language,
    body: row.body,
    variables: row.variables,
    createdAt: row.created_at.toISOString(),
  };
}

/** A template is named by its name and language, as WhatsApp knows it. */
const templateTarget = (id: string, t: { name: string; language: string }) => ({
  type: 'template' as const,
  id,
  label: `${t.name} (${t.language})`,
  subjectUserId: null,
});

async function whatsAppSender(ctx: AppContext, senderId: string) {
  const sender = await getSender(ctx.db, senderId);
  if (!sender) throw notFound(msg.senderNotFound);
  if (sender.provider_kind !== 'whatsapp_cloud') throw badRequest(msg.templateSenderNotWhatsApp);
  return sender;
}

export async function listSenderTemplates(
  ctx: AppContext,
  actor: Actor,
  senderId: string,
): Promise<SenderTemplate[]> {
  requireAdmin(actor);
  const sender = await getSender(ctx.db, senderId);
  if (!sender) throw notFound(msg.senderNotFound);
  return (await repo.listTemplates(ctx.db, senderId)).map(present);
}

export async function addTemplate(
  ctx: AppContext,
  actor: Actor,
  senderId: string,
  body: CreateTemplateBody,
  auditActor: AuditActor,
): Promise<SenderTemplate> {
  requireAdmin(actor);
  const sender = await whatsAppSender(ctx, senderId);
  if ((await repo.countTemplates(ctx.db, senderId)) >= TEMPLATE_LIMITS.perSender) {
    throw conflict(msg.templateTooMany(TEMPLATE_LIMITS.perSender));
  }
  const fields = {
    name: body.name,
    language: body.language,
    body: body.body,
    // The schema refused a body whose variables are not numbered 1 to n.
    variables: templateVariableCount(body.body) ?? 0,
  };
  const id = await ctx.db
    .transaction()
    .execute(async (tx) => {
      const newId = await repo.insertTemplate(tx, { senderId, ...fields });
      await recordAudit(tx, {
        actor: auditActor,
        action: 'template.create',
        target: templateTarget(newId, fields),
        changes: auditChanges(null, { ...fields, sender: sender.name }),
      });
      return newId;
    })
    .catch((err: unknown) => {
      throw isUniqueViolation(err) ? conflict(msg.templateTaken) : err;
    });
  const row = await repo.getTemplate(ctx.db, id);
  if (!row) throw notFound(msg.templateNotFound);
  return present(row);
}

export async function removeTemplate(
  ctx: AppContext,
  actor: Actor,
  id: string,
  auditActor: AuditActor,
): Promise<void> {
  requireAdmin(actor);
  await ctx.db.transaction().execute(async (tx) => {
    const row = await repo.getTemplate(tx, id);
    if (!row || !(await repo.deleteTemplate(tx, id))) throw notFound(msg.templateNotFound);
    const { name, language, body, variables } = row;
    await recordAudit(tx, {
      actor: auditActor,
      action: 'template.delete',
      target: templateTarget(id, row),
      changes: auditChanges({ name, language, body, variables }, null),
    });
  });
}

/** The templates the campaign form offers for a credit type (none unless it goes to WhatsApp). */
export async function campaignTemplates(
  db: DbOrTx,
  creditType: CreditType,
): Promise<SenderTemplate[]> {
  const sender = await repo.routedSender(db, creditType);
  if (sender?.kind !== 'whatsapp_cloud') return [];
  return (await repo.listTemplates(db, sender.id)).map(present);
}

/**
 * A new campaign's template: one of the templates of the sender its credit type goes through,
 * with a valid value for each variable. The copy the campaign keeps, and the filled text: the
 * campaign's message is what its recipients read, whatever message the request carried.
 */
export async function campaignTemplate(
  db: DbOrTx,
  creditType: CreditType,
  templateId: string,
  values: readonly string[],
): Promise<{ copy: CampaignTemplate; text: string }> {
  const offered = await campaignTemplates(db, creditType);
  const template = offered.find((t) => t.id === templateId);
  if (!template) throw badRequest(msg.templateNotOfRoute);
  const problem = templateValuesProblem(template.variables, values);
  if (problem) throw badRequest(problem);
  return {
    copy: { name: template.name, language: template.language, bodyParameters: [...values] },
    text: fillTemplate(template.body, values),
  };
}
