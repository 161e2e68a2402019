/**
 * The campaign form's WhatsApp template (docs/delivery.md, Templates): which of the templates
 * offered for the credit type is chosen, and the value typed for each of its variables. Pure
 * rules here, unit-tested; the server checks the same with the contract's helpers.
 */
import {
  fillTemplate,
  templateValuesProblem,
  type CampaignTemplate,
  type SenderTemplate,
} from '@herald/contract';
import type { CampaignFiles, CampaignFormValues } from './create-form-logic';

/** `templateId` '' is "No template"; `values[i]` is what was typed for `{{i + 1}}`. */
export interface TemplateChoice {
  templateId: string;
  values: string[];
}

export const NO_TEMPLATE: TemplateChoice = { templateId: '', values: [] };

/**
 * The chosen template among those offered for the credit type now, or null for none. A choice
 * whose template is not offered (another type's sender, or removed since) counts as none.
 */
export function chosenTemplate(
  choice: TemplateChoice,
  offered: readonly SenderTemplate[] | undefined,
): SenderTemplate | null {
  if (!choice.templateId) return null;
  return offered?.find((x) => x.id === choice.templateId) ?? null;
}

/** Choosing a template (or none): one value per variable, keeping those already typed. */
export function chooseTemplate(choice: TemplateChoice, template: SenderTemplate | null) {
  if (!template) return NO_TEMPLATE;
  const values = Array.from({ length: template.variables }, (_, i) => choice.values[i] ?? '');
  return { templateId: template.id, values };
}

/** The values as they are sent: trimmed, one per variable. */
export function sentValues(choice: TemplateChoice, template: SenderTemplate): string[] {
  return Array.from({ length: template.variables }, (_, i) => (choice.values[i] ?? '').trim());
}

/** The template's text with the values typed so far (a variable still empty shows as `{{n}}`). */
export function templatePreview(choice: TemplateChoice, template: SenderTemplate): string {
  return fillTemplate(template.body, sentValues(choice, template));
}

/** The first problem of the values, as the server words it; null when they may be sent. */
export function templateProblem(choice: TemplateChoice, template: SenderTemplate): string | null {
  return templateValuesProblem(template.variables, sentValues(choice, template));
}

/** Whether one value would be refused on its own (its input is then marked invalid). */
export function valueRefused(value: string): boolean {
  return templateValuesProblem(1, [value.trim()]) !== null;
}

/**
 * The multipart fields of a campaign sent as the template; its message is the filled text,
 * what the recipients read, so the campaign's lists, details and name show that text.
 */
export function templateFields(choice: TemplateChoice, template: SenderTemplate) {
  const values = sentValues(choice, template);
  return {
    templateId: template.id,
    templateValues: JSON.stringify(values),
    message: fillTemplate(template.body, values),
  };
}

/**
 * A copied campaign's template as the form's choice: the offered template of the same name and
 * language with the campaign's values, or none when the credit type's sender no longer has it.
 */
export function copiedChoice(
  kept: CampaignTemplate | null,
  offered: readonly SenderTemplate[],
): TemplateChoice {
  if (!kept) return NO_TEMPLATE;
  const match = offered.find((x) => x.name === kept.name && x.language === kept.language);
  if (!match) return NO_TEMPLATE;
  return chooseTemplate({ templateId: match.id, values: kept.bodyParameters }, match);
}

/** A draft's stored choice, or none when it is not one this form wrote. */
export function readChoice(raw: unknown): TemplateChoice {
  if (typeof raw !== 'object' || raw === null) return NO_TEMPLATE;
  const { templateId, values } = raw as { templateId?: unknown; values?: unknown };
  if (typeof templateId !== 'string' || !Array.isArray(values)) return NO_TEMPLATE;
  if (!values.every((v): v is string => typeof v === 'string')) return NO_TEMPLATE;
  return { templateId, values };
}

/**
 * The campaign as its recipients get it, for the name's placeholder and the confirm preview:
 * sent as a template, its text is the filled template and no file or button goes with it
 * (the DP stays: it is the sender's profile picture, never part of a message).
 */
export function sentAs(
  values: CampaignFormValues,
  files: CampaignFiles,
  chosen: { template: SenderTemplate | null; choice: TemplateChoice } | null,
): { values: CampaignFormValues; files: CampaignFiles } {
  if (!chosen?.template) return { values, files };
  const { message } = templateFields(chosen.choice, chosen.template);
  return {
    values: { ...values, message, ctaCallText: '', ctaURLText: '' },
    files: { dp: files.dp, singleCreative: null, images: [], video: null, pdf: null, audio: null },
  };
}
