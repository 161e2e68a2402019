/**
 * Filling the create form from a campaign (docs/product.md, Campaigns, "Clone and resend"):
 * Clone copies everything, Resend to failed / to not read the same but with only that group's
 * numbers. Pure rules here; the fetching is use-campaign-copy.ts.
 */
import {
  CAMPAIGN_FILE_FIELDS,
  CAMPAIGN_NUMBERS_HEADER,
  campaignCopyUi as text,
  copyCampaignName,
  MAX_CAMPAIGN_IMAGES,
  type Campaign,
  type CampaignCopyKind,
  type CampaignFileField,
  type CampaignFileKind,
} from '@herald/contract';
import {
  EMPTY_FILES,
  featuresOf,
  withCreditType,
  type CampaignFiles,
  type CampaignFormValues,
} from './create-form-logic';
import { isEmptyDraft } from './form-draft';
import type { TemplateChoice } from './template-choice';

/** A row's Clone or Resend, handed to the form; `seq` tells two clicks on one row apart. */
export interface CopyRequest {
  campaign: Campaign;
  kind: CampaignCopyKind;
  seq: number;
}

/** What the form says it was filled from (until the campaign is created or refilled). */
export interface CopiedFrom {
  name: string;
  parts: string[];
  /** The owner kept in Campaign For when it is not the caller, with the label to show. */
  owner: { email: string; label: string } | null;
}

/**
 * The text inputs of the copy: same type, message, buttons and country; the name suffixed; the
 * owner kept when the caller is not the owner ('' is Self). Inputs the type does not take stay
 * empty, as switching the type would leave them.
 */
export function copiedValues(
  c: Campaign,
  kind: CampaignCopyKind,
  myEmail: string,
): CampaignFormValues {
  const values: CampaignFormValues = {
    userEmail: c.userEmail === myEmail ? '' : c.userEmail,
    creditType: c.creditType,
    name: copyCampaignName(c.name, kind),
    message: c.message,
    countryName: c.countryName ?? '',
    countryCode: c.countryCode ?? '',
    ctaCallText: c.ctaCallText ?? '',
    ctaCall: c.ctaCall ?? '',
    ctaURLText: c.ctaURLText ?? '',
    ctaURL: c.ctaURL ?? '',
    // A copy is sent when approved unless a new time is chosen: the old one may be past.
    sendAt: '',
  };
  return withCreditType(values, EMPTY_FILES, c.creditType).values;
}

const FIELD_OF = Object.fromEntries(
  Object.entries(CAMPAIGN_FILE_FIELDS).map(([field, kind]) => [kind, field]),
) as Record<CampaignFileKind, CampaignFileField>;

/** The form's picker for a stored file's kind (`image` files go to `images`). */
export const fieldOfKind = (kind: CampaignFileKind): CampaignFileField => FIELD_OF[kind];

/**
 * The copied media in the form's slots, in their stored order: up to MAX_CAMPAIGN_IMAGES images,
 * the first file of each single-file picker (a stored campaign never holds more).
 */
export function filesIntoFields(
  files: readonly { field: CampaignFileField; file: File }[],
): CampaignFiles {
  const out: CampaignFiles = { ...EMPTY_FILES, images: [] };
  for (const { field, file } of files) {
    if (field === 'images') {
      if (out.images.length < MAX_CAMPAIGN_IMAGES) out.images.push(file);
    } else {
      out[field] ??= file;
    }
  }
  return out;
}

/**
 * What the note lists as copied, in the form's order; `template` names the template the form
 * chose again (the campaign's, still offered for its credit type).
 */
export function copiedParts(
  values: CampaignFormValues,
  mediaCount: number,
  numbers: { kind: CampaignCopyKind; count: number },
  template: string | null = null,
): string[] {
  const f = featuresOf(values.creditType);
  const parts = [text.partType(values.creditType), text.partName, text.partMessage];
  if (template) parts.push(text.partTemplate(template));
  if (f.international && (values.countryName || values.countryCode)) parts.push(text.partCountry);
  const buttons = [values.ctaCallText, values.ctaCall, values.ctaURLText, values.ctaURL];
  if (f.cta && buttons.some(Boolean)) parts.push(text.partButtons);
  if (mediaCount > 0) parts.push(text.partFiles(mediaCount));
  parts.push(text.partNumbers(numbers.kind, numbers.count));
  return parts;
}

/** Bytes enough for the header line and the first number, whatever its line ending. */
const SNIFF_BYTES = 64;

/** Whether a numbers CSV holds a number after its header (read from its first bytes only). */
export async function csvHasNumbers(blob: Blob): Promise<boolean> {
  const head = await blob.slice(0, SNIFF_BYTES).text();
  const lines = head.split(/\r?\n/).filter((l) => l.trim() !== '');
  return lines.some((l) => l.trim() !== CAMPAIGN_NUMBERS_HEADER);
}

/**
 * The numbers without the CSV's header line, so the form's counts list no "ignored" entry for
 * a line it did not write (the header is ASCII: its characters are its bytes).
 */
export async function withoutHeader(blob: Blob): Promise<Blob> {
  const head = await blob.slice(0, SNIFF_BYTES).text();
  const line = new RegExp(`^${CAMPAIGN_NUMBERS_HEADER}\\r?\\n`).exec(head);
  return line ? blob.slice(line[0].length) : blob;
}

/**
 * Whether filling the form would replace something: typed text or template values (the owner
 * and type alone are not a draft, as form-draft.ts counts it), numbers, or a chosen file.
 */
export function formHoldsSomething(form: {
  values: CampaignFormValues;
  template: TemplateChoice;
  numbersText: string;
  recipients: number;
  inputs: number;
  files: CampaignFiles;
}): boolean {
  const chosen = Object.values(form.files).some((v: File | File[] | null) =>
    Array.isArray(v) ? v.length > 0 : v !== null,
  );
  const draft = { values: form.values, numbers: form.numbersText, template: form.template };
  return !isEmptyDraft(draft) || form.recipients > 0 || form.inputs > 0 || chosen;
}
