/**
 * The form's draft in this tab's sessionStorage, so a refresh or Back does not lose what was
 * typed (docs/product.md, Campaigns). One draft per logged-in user; text only: files cannot be
 * stored and must be chosen again. The chosen template and its values are kept too; restored,
 * the choice holds only while that template is still offered for the credit type
 * (template-choice.ts). Removed once the campaign is created.
 */
import { CREDIT_TYPES } from '@herald/contract';
import { EMPTY_VALUES, type CampaignFormValues } from './create-form-logic';
import { NO_TEMPLATE, readChoice, type TemplateChoice } from './template-choice';

export interface CampaignDraft {
  values: CampaignFormValues;
  /** What the Numbers box held. */
  numbers: string;
  /** The template chosen and its variables' values (NO_TEMPLATE: none). */
  template: TemplateChoice;
}

const PREFIX = 'herald.campaignDraft.';
const NOT_DRAFT = new Set(['userEmail', 'creditType']);

export const draftKey = (userId: string) => `${PREFIX}${userId}`;

/**
 * Whether there is anything worth keeping (the owner and type alone are not a draft, nor a
 * template chosen with no value typed).
 */
export function isEmptyDraft(draft: CampaignDraft): boolean {
  const texts = Object.entries(draft.values).filter(([k]) => !NOT_DRAFT.has(k));
  const typed = [...texts.map(([, v]) => v), ...draft.template.values];
  return !draft.numbers.trim() && typed.every((v) => !v.trim());
}

/** The stored draft, or null when there is none or it is not one this form wrote. */
export function loadDraft(storage: Storage, userId: string): CampaignDraft | null {
  let raw: unknown;
  try {
    raw = JSON.parse(storage.getItem(draftKey(userId)) ?? 'null');
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const { values, numbers, template } = raw as {
    values?: unknown;
    numbers?: unknown;
    template?: unknown;
  };
  if (typeof values !== 'object' || values === null || typeof numbers !== 'string') return null;
  const read: CampaignFormValues = { ...EMPTY_VALUES };
  for (const key of Object.keys(EMPTY_VALUES) as (keyof CampaignFormValues)[]) {
    const v = (values as Record<string, unknown>)[key];
    // The owner is picked again: the picker shows only the users it has searched for.
    if (key === 'userEmail') continue;
    if (key === 'creditType') {
      if ((CREDIT_TYPES as readonly unknown[]).includes(v))
        read.creditType = v as typeof read.creditType;
    } else if (typeof v === 'string') {
      read[key] = v;
    }
  }
  return { values: read, numbers, template: template ? readChoice(template) : NO_TEMPLATE };
}

/** Stores the draft, or removes it when empty; a full or blocked storage only loses the draft. */
export function saveDraft(storage: Storage, userId: string, draft: CampaignDraft): void {
  try {
    if (isEmptyDraft(draft)) storage.removeItem(draftKey(userId));
    else storage.setItem(draftKey(userId), JSON.stringify(draft));
  } catch {
    // Quota or privacy mode: the form works without a draft.
  }
}

export function clearDraft(storage: Storage, userId: string): void {
  try {
    storage.removeItem(draftKey(userId));
  } catch {
    // As above.
  }
}
