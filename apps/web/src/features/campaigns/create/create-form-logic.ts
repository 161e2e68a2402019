/**
 * The create-campaign form's rules (docs/product.md, Campaigns), kept free of React so they are
 * unit-tested. The server checks them all again.
 */
import {
  CREDIT_TYPES,
  CreateCampaignFieldsSchema,
  hasCta,
  hasDp,
  isInternational,
  MAX_RECIPIENTS,
  RECIPIENT_MAX_DIGITS,
  server,
  ui,
  type Balances,
  type CampaignFileField,
  type CreditType,
  type SenderTemplate,
  type User,
  writeRecipientKey,
} from '@herald/contract';
import { ApiError } from '../../../lib/api-client';
import { firstIssues, type FieldErrors } from '../../../components/field-errors';
import { templateFields, templateProblem, type TemplateChoice } from './template-choice';
import { localInputToIso } from '../../../lib/send-at';

/** The text inputs, as typed. `userEmail` '' means the logged-in user (Self). */
export interface CampaignFormValues {
  userEmail: string;
  creditType: CreditType;
  name: string;
  message: string;
  countryName: string;
  countryCode: string;
  ctaCallText: string;
  ctaCall: string;
  ctaURLText: string;
  ctaURL: string;
  /** "Send at" as the datetime-local input holds it (local time); '' sends once approved. */
  sendAt: string;
}

export interface CampaignFiles {
  dp: File | null;
  singleCreative: File | null;
  images: File[];
  video: File | null;
  pdf: File | null;
  audio: File | null;
}

export const EMPTY_VALUES: CampaignFormValues = {
  userEmail: '',
  creditType: CREDIT_TYPES[0],
  name: '',
  message: '',
  countryName: '',
  countryCode: '',
  ctaCallText: '',
  ctaCall: '',
  ctaURLText: '',
  ctaURL: '',
  sendAt: '',
};

export const EMPTY_FILES: CampaignFiles = {
  dp: null,
  singleCreative: null,
  images: [],
  video: null,
  pdf: null,
  audio: null,
};

/** Which groups of inputs a credit type shows. */
export interface TypeFeatures {
  international: boolean;
  dp: boolean;
  cta: boolean;
}

export function featuresOf(type: CreditType): TypeFeatures {
  return { international: isInternational(type), dp: hasDp(type), cta: hasCta(type) };
}

const COUNTRY_KEYS = ['countryName', 'countryCode'] as const;
const CTA_KEYS = ['ctaCallText', 'ctaCall', 'ctaURLText', 'ctaURL'] as const;

/** Switches the credit type and empties every input the new type does not take. */
export function withCreditType(
  values: CampaignFormValues,
  files: CampaignFiles,
  creditType: CreditType,
): { values: CampaignFormValues; files: CampaignFiles } {
  const f = featuresOf(creditType);
  const next = { ...values, creditType };
  if (!f.international) for (const k of COUNTRY_KEYS) next[k] = '';
  if (!f.cta) for (const k of CTA_KEYS) next[k] = '';
  return {
    values: next,
    files: {
      dp: f.dp ? files.dp : null,
      singleCreative: f.cta ? files.singleCreative : null,
      images: f.cta ? [] : files.images,
      video: f.cta ? null : files.video,
      pdf: f.cta ? null : files.pdf,
      audio: f.cta ? null : files.audio,
    },
  };
}

/** The media pickers a credit type shows. */
export function mediaFieldsOf(f: TypeFeatures): CampaignFileField[] {
  const media: CampaignFileField[] = f.cta
    ? ['singleCreative']
    : ['images', 'video', 'pdf', 'audio'];
  return f.dp ? ['dp', ...media] : media;
}

/** What the recipients cost: the owner's balance of the type and how far it falls short. */
export interface Cost {
  count: number;
  available: number;
  /** The balance after the campaign; 0 when short. */
  left: number;
  /** Credits missing; 0 when the balance covers it. */
  short: number;
}

/** Null until there are recipients and the balance is known. */
export function costOf(recipients: number, available: number | undefined): Cost | null {
  if (available === undefined || recipients === 0) return null;
  return {
    count: recipients,
    available,
    left: Math.max(0, available - recipients),
    short: Math.max(0, recipients - available),
  };
}

/** The owner's balance of the type; missing means 0. Undefined while loading. */
export function availableFor(
  balances: Balances | undefined,
  email: string,
  type: CreditType,
): number | undefined {
  if (!balances) return undefined;
  return balances[email]?.[type] ?? 0;
}

/** Why the Submit button is disabled, if it is: more recipients than credits. */
export function submitBlocker(recipients: number, available: number | undefined): string | null {
  if (recipients > MAX_RECIPIENTS) return server.campaignTooManyRecipients;
  if (available !== undefined && recipients > available) return ui.campaigns.insufficientCredits;
  return null;
}

/**
 * Why a chosen file blocks the submission: a media file the form refused, or a numbers file
 * that could not be read, stays listed until the user removes it rather than being left out.
 */
export function fileBlocker(
  rejectedMedia: Partial<Record<CampaignFileField, string>>,
  numbersInputs: readonly { error: string | null }[],
): string | null {
  const refused =
    Object.values(rejectedMedia).some(Boolean) || numbersInputs.some((i) => i.error !== null);
  return refused ? ui.campaigns.fileRejectedBlocks : null;
}

/** The text fields to send: only those the type takes, empty ones left out. */
export type CampaignTextFields = Partial<
  Record<keyof CampaignFormValues | 'templateId' | 'templateValues', string>
>;

/** The chosen WhatsApp template (one offered for the credit type) with its typed values. */
export interface ChosenTemplate {
  template: SenderTemplate;
  choice: TemplateChoice;
}

export type CheckedCampaign =
  { ok: true; fields: CampaignTextFields } | { ok: false; errors: FieldErrors };

/**
 * Checks the inputs with the server's own schema plus the per-type rules of the server's
 * `checkUpload`. Errors are keyed by input (`recipients` for the recipients box,
 * `templateValues` for the template's variables). Sent as a template, the message is the
 * template's filled text (templateFields) and the message box is not used.
 */
export function checkCampaignForm(
  values: CampaignFormValues,
  recipients: number,
  chosen: ChosenTemplate | null = null,
): CheckedCampaign {
  const f = featuresOf(values.creditType);
  const sent: CampaignTextFields = {
    userEmail: values.userEmail,
    creditType: values.creditType,
    name: values.name,
    message: values.message,
    // Sent in UTC; the schema checks it against the clock, as the server will.
    sendAt: localInputToIso(values.sendAt),
  };
  if (f.international) for (const k of COUNTRY_KEYS) sent[k] = values[k];
  // Sent as a template, no button goes with it (template-choice.ts, sentAs).
  if (f.cta && !chosen) for (const k of CTA_KEYS) sent[k] = values[k];
  if (chosen) Object.assign(sent, templateFields(chosen.choice, chosen.template));
  const errors: FieldErrors = {};
  const parsed = CreateCampaignFieldsSchema.safeParse(sent);
  if (!parsed.success) Object.assign(errors, firstIssues(parsed.error));
  if (chosen) {
    // The message box is hidden: what is wrong with the filled text is the values' to fix.
    const problem = templateProblem(chosen.choice, chosen.template) ?? errors.message;
    delete errors.message;
    if (problem) errors.templateValues = problem;
  }
  if (f.international) {
    for (const k of COUNTRY_KEYS) {
      if (!values[k].trim()) errors[k] ??= ui.campaigns.countryRequired;
    }
  }
  if (f.cta && !chosen) {
    const pairs = [
      ['ctaCallText', 'ctaCall'],
      ['ctaURLText', 'ctaURL'],
    ] as const;
    for (const [text, target] of pairs) {
      const hasText = values[text].trim() !== '';
      const hasTarget = values[target].trim() !== '';
      if (hasText && !hasTarget) errors[target] ??= server.campaignCtaIncomplete;
      if (hasTarget && !hasText) errors[text] ??= server.campaignCtaIncomplete;
    }
  }
  if (recipients === 0) errors.recipients = ui.campaigns.noRecipients;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const fields: CampaignTextFields = {};
  for (const [k, v] of Object.entries(sent) as [keyof CampaignTextFields, string][]) {
    if (v.trim()) fields[k] = v.trim();
  }
  return { ok: true, fields };
}

/** Numbers per slice when encoding: each slice stays well under a 50 ms task. */
const ENCODE_SLICE = 100_000;
const COMMA = 44;

/**
 * The `to` field (comma-joined numbers) as ASCII bytes, written straight from the
 * recipient keys in slices that yield between them: 1,000,000 numbers make no string each
 * (no garbage-collection pause) and never block the page.
 */
export async function encodeRecipients(
  keys: Float64Array,
  pause: () => Promise<void> = () => new Promise((r) => setTimeout(r, 0)),
): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Uint8Array(keys.length * (RECIPIENT_MAX_DIGITS + 1));
  let at = 0;
  for (let start = 0; start < keys.length; start += ENCODE_SLICE) {
    const end = Math.min(keys.length, start + ENCODE_SLICE);
    for (let i = start; i < end; i++) {
      if (i > 0) out[at++] = COMMA;
      at += writeRecipientKey(keys[i] as number, out, at);
    }
    if (end < keys.length) await pause();
  }
  return out.subarray(0, at);
}

/**
 * Whether a failed submission may be retried with the same Idempotency-Key: yes when the
 * outcome is unknown (network error, 5xx) or the first request is still running; no when the
 * server answered for sure (4xx), so a corrected retry is a new request.
 */
export function keepsIdempotencyKey(err: unknown): boolean {
  if (!(err instanceof ApiError)) return true;
  if (err.status >= 500) return true;
  return err.status === 409 && err.serverMessage === server.idempotencyInProgress;
}

/**
 * 'Campaign For' choices: the caller (Self, sent as no email) and the Active users in scope.
 * The server refuses a blocked owner (409), so the picker does not offer one.
 */
export function ownerOptions(
  me: { name: string; email: string },
  users: readonly Pick<User, 'name' | 'email' | 'status'>[] | undefined,
): { value: string; label: string }[] {
  return [
    { value: '', label: `${me.name} (Self)` },
    ...(users ?? [])
      .filter((u) => u.email !== me.email && u.status === 'Active')
      .map((u) => ({ value: u.email, label: `${u.name} (${u.email})` })),
  ];
}
