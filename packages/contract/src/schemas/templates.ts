import { z } from 'zod';
import { CREDIT_TYPES } from '../credit-types.js';
import { server as msg } from '../server-messages.js';
import { text } from './common.js';

/**
 * WhatsApp message templates (docs/delivery.md, Templates): the Admin registers, per WhatsApp
 * sender, the templates Meta approved (name, language, body with `{{1}}` … `{{n}}`); a
 * campaign whose credit type routes to that sender may be sent as one of them, with a value for
 * each variable. Marketing messages to people who have not written in the last 24 hours must
 * be templates.
 */

export const TEMPLATE_LIMITS = {
  /** Meta's template names: lowercase letters, digits and underscores. */
  nameMax: 512,
  bodyMax: 1024,
  valueMax: 1024,
  perSender: 100,
} as const;

const VARIABLE = /\{\{\s*(\d+)\s*\}\}/g;

/**
 * How many variables a template body has: `{{1}}` to `{{n}}`, each number at least once and
 * none missing; null when they are not numbered so.
 */
export function templateVariableCount(body: string): number | null {
  const seen = new Set<number>();
  for (const m of body.matchAll(VARIABLE)) seen.add(Number(m[1]));
  for (let i = 1; i <= seen.size; i++) if (!seen.has(i)) return null;
  return seen.size;
}

/** The body with each `{{n}}` replaced by its value (the campaign form's preview). */
export function fillTemplate(body: string, values: readonly string[]): string {
  return body.replace(VARIABLE, (whole, n: string) => values[Number(n) - 1] || whole);
}

/**
 * Meta's rules for a body parameter's text: not empty, no new line or tab, at most four
 * spaces in a row. The message of the first problem, or null.
 */
export function templateValuesProblem(variables: number, values: readonly string[]): string | null {
  if (values.length !== variables || values.some((v) => v.trim() === '')) {
    return msg.templateValuesMissing(variables);
  }
  for (const v of values) {
    if (v.length > TEMPLATE_LIMITS.valueMax)
      return msg.templateValueTooLong(TEMPLATE_LIMITS.valueMax);
    if (/[\n\r\t]| {5}/.test(v)) return msg.templateValueInvalid;
  }
  return null;
}

export const SenderTemplateSchema = z.object({
  id: z.string(),
  senderId: z.string(),
  name: z.string(),
  language: z.string(),
  body: z.string(),
  variables: z.number().int(),
  createdAt: z.string(),
});
export type SenderTemplate = z.infer<typeof SenderTemplateSchema>;

export const CreateTemplateBodySchema = z.object({
  name: text()
    .trim()
    .regex(/^[a-z0-9_]+$/, msg.templateNameInvalid)
    .max(TEMPLATE_LIMITS.nameMax, msg.templateNameInvalid),
  language: text()
    .trim()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, msg.templateLanguageInvalid),
  body: text()
    .trim()
    .min(1, msg.templateBodyInvalid(TEMPLATE_LIMITS.bodyMax))
    .max(TEMPLATE_LIMITS.bodyMax, msg.templateBodyInvalid(TEMPLATE_LIMITS.bodyMax))
    .refine((b) => templateVariableCount(b) !== null, msg.templateVariablesNumbering),
});
export type CreateTemplateBody = z.input<typeof CreateTemplateBodySchema>;

/** GET /api/delivery/campaign-templates: what the campaign form offers for a credit type. */
export const CampaignTemplatesQuerySchema = z.object({
  creditType: z.enum(CREDIT_TYPES, msg.creditTypeInvalid),
});
export const CampaignTemplatesSchema = z.object({ templates: z.array(SenderTemplateSchema) });
export type CampaignTemplates = z.infer<typeof CampaignTemplatesSchema>;

/** A campaign's template as the campaign keeps it (a copy: a later edit changes nothing sent). */
export const CampaignTemplateSchema = z.object({
  name: z.string(),
  language: z.string(),
  bodyParameters: z.array(z.string()),
});
export type CampaignTemplate = z.infer<typeof CampaignTemplateSchema>;
