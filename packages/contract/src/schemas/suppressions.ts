import { z } from 'zod';
import { createdAtIdCursor, EmailSchema, text } from './common.js';
import { server as msg } from '../server-messages.js';
import { MAX_RECIPIENTS, normalizeRecipient } from '../recipients.js';
import {
  SUPPRESSIONS_PAGE_DEFAULT,
  SUPPRESSIONS_PAGE_MAX,
  SUPPRESSION_SEARCH_MAX_DIGITS,
} from '../limits.js';

/**
 * The suppression list (docs/product.md, Opt-outs): numbers an account's campaigns never send
 * to. A number is stored as recipients are (digits only, recipients.ts), once per owner.
 */

/** How a number came on the list: by hand, a CSV import, a STOP keyword, the provider's refusal. */
export const SUPPRESSION_SOURCES = ['manual', 'import', 'keyword', 'provider'] as const;
export type SuppressionSource = (typeof SUPPRESSION_SOURCES)[number];

export const SuppressionSchema = z.object({
  id: z.string(),
  phone: z.string(),
  source: z.enum(SUPPRESSION_SOURCES),
  createdAt: z.string(),
  /** The account whose campaigns skip the number. */
  owner: z.object({ id: z.string(), name: z.string(), email: z.string() }),
});
export type Suppression = z.infer<typeof SuppressionSchema>;

const pageLimitMessage = msg.pageLimit(SUPPRESSIONS_PAGE_MAX);
const searchInvalid = msg.suppressionSearchInvalid(SUPPRESSION_SEARCH_MAX_DIGITS);
const blankToUndefined = (v: string | undefined) => (v ? v : undefined);

/** A list's filters, shared by the page and the CSV export. */
const filters = {
  /** Keeps numbers containing these digits. */
  search: text()
    .trim()
    .optional()
    .transform(blankToUndefined)
    .pipe(
      z
        .string()
        .regex(new RegExp(`^\\d{1,${SUPPRESSION_SEARCH_MAX_DIGITS}}$`), searchInvalid)
        .optional(),
    ),
  /** The Admin's filter by owner; anyone else may only name itself. */
  ownerId: text()
    .trim()
    .optional()
    .transform(blankToUndefined)
    .pipe(z.uuid(msg.userNotFound).optional()),
};

/**
 * GET /api/suppressions: newest first, `limit` at a time, after `cursor` (the previous page's
 * `nextCursor`). A non-Admin lists its own entries; the Admin everyone's, or one owner's.
 */
export const SuppressionsQuerySchema = z.object({
  ...filters,
  cursor: z.string().optional().transform(blankToUndefined).pipe(createdAtIdCursor().optional()),
  limit: z.coerce
    .number({ error: pageLimitMessage })
    .int(pageLimitMessage)
    .min(1, pageLimitMessage)
    .max(SUPPRESSIONS_PAGE_MAX, pageLimitMessage)
    .default(SUPPRESSIONS_PAGE_DEFAULT),
});
export type SuppressionsQuery = z.input<typeof SuppressionsQuerySchema>;
export type SuppressionsFilters = z.output<typeof SuppressionsQuerySchema>;

/** GET /api/suppressions/export: the rows the same filters show, every page. */
export const SuppressionsExportQuerySchema = z.object(filters);
export type SuppressionsExportQuery = z.input<typeof SuppressionsExportQuerySchema>;

export const SuppressionPageSchema = z.object({
  suppressions: z.array(SuppressionSchema),
  /** Pass as `cursor` for the next page; null when none are left. */
  nextCursor: z.string().nullable(),
});
export type SuppressionPage = z.infer<typeof SuppressionPageSchema>;

/** One number as a person types it: read by the recipient rules, 7 to 15 digits. */
export const SuppressionPhoneSchema = text({ error: msg.suppressionPhoneInvalid })
  .trim()
  .max(64, msg.suppressionPhoneInvalid)
  .transform((v, ctx) => {
    const phone = normalizeRecipient(v);
    if (phone === null) {
      ctx.addIssue({ code: 'custom', message: msg.suppressionPhoneInvalid });
      return z.NEVER;
    }
    return phone;
  });

/** POST /api/suppressions: adds one number to the caller's own list. */
export const AddSuppressionBodySchema = z.object({ phone: SuppressionPhoneSchema });
export type AddSuppressionBody = z.input<typeof AddSuppressionBodySchema>;

export const AddSuppressionReplySchema = z.object({
  message: z.string(),
  suppression: SuppressionSchema,
});
export type AddSuppressionReply = z.infer<typeof AddSuppressionReplySchema>;

/** POST /api/suppressions/import: how the file's rows ended. */
export const SuppressionImportReplySchema = z.object({
  message: z.string(),
  /** New on the list. */
  added: z.number().int(),
  /** On the list already, or repeated in the file. */
  skipped: z.number().int(),
  /** Rows whose cell is not a 7 to 15 digit number. */
  invalid: z.number().int(),
});
export type SuppressionImportReply = z.infer<typeof SuppressionImportReplySchema>;

const checkTooMany = msg.suppressionCheckTooMany(MAX_RECIPIENTS);
const NUMBER = /^\d{7,15}$/;

/**
 * Comma-joined numbers of 7 to 15 digits, or nothing, as a list. Checked number by number: one
 * regular expression over a million of them overflows the regex engine's stack.
 */
function joinedNumbers(v: string, ctx: z.RefinementCtx): string[] {
  if (v === '') return [];
  const numbers = v.split(',');
  if (numbers.length > MAX_RECIPIENTS) {
    ctx.addIssue({ code: 'custom', message: checkTooMany });
    return z.NEVER;
  }
  if (!numbers.every((n) => NUMBER.test(n))) {
    ctx.addIssue({ code: 'custom', message: msg.suppressionPhoneInvalid });
    return z.NEVER;
  }
  return numbers;
}

/**
 * POST /api/suppressions/check: how many of a campaign's numbers (as the Create Campaign form
 * read them: digits, 7 to 15) are on the list of the campaign's owner, the caller or the user
 * it picked in Campaign For. The numbers come comma-joined in one string, as the form writes
 * them for the campaign itself, so a million of them cost one string, not a million.
 */
export const SuppressionCheckBodySchema = z.object({
  numbers: z
    .string({ error: msg.suppressionPhoneInvalid })
    .max(MAX_RECIPIENTS * 16, checkTooMany)
    .transform(joinedNumbers),
  /** Campaign For's email, as the campaign form sends it; absent for the caller itself. */
  userEmail: EmailSchema.optional(),
});
export type SuppressionCheckInput = z.input<typeof SuppressionCheckBodySchema>;
export type SuppressionCheckBody = z.output<typeof SuppressionCheckBodySchema>;

export const SuppressionCheckReplySchema = z.object({ suppressed: z.number().int() });
export type SuppressionCheckReply = z.infer<typeof SuppressionCheckReplySchema>;
