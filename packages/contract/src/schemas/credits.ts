import { z } from 'zod';
import { CREDIT_TRANSACTION_TYPES, CREDIT_TYPES } from '../credit-types.js';
import { rupeesToPaise } from '../money.js';
import { BigintCursorSchema, EmailSchema, text, TzOffsetSchema } from './common.js';
import { BALANCES_PAGE_DEFAULT, BALANCES_PAGE_MAX } from '../limits.js';
import { server } from '../server-messages.js';

/** Largest count in one credit transaction; with MAX_RATE_PAISE totals stay exact in JS. */
export const MAX_CREDIT_COUNT = 10_000_000;
export const MAX_RATE_PAISE = 10_000_000; // ₹100,000 per credit
export const HISTORY_PAGE_DEFAULT = 50;

/** Transaction History's columns, shared by the screen and the .xlsx export. */
export const HISTORY_COLUMNS = [
  'Date',
  'To (Email)',
  'To (Name)',
  'By (Email)',
  'By (Name)',
  'Type',
  'Credit Type',
  'Count',
  'Rate',
  'Total Amount',
  'Reason',
] as const;
export type HistoryColumn = (typeof HISTORY_COLUMNS)[number];
export const HISTORY_PAGE_MAX = 200;

export const CreditTypeSchema = z.enum(CREDIT_TYPES, 'Choose a credit type.');
export const CreditTransactionTypeSchema = z.enum(
  CREDIT_TRANSACTION_TYPES,
  'Choose Added or Removed.',
);

/** Rate per credit in rupees (number or numeric string), at most 2 decimals; becomes paise. */
export const RateSchema = z
  .union([z.number(), z.string()], { error: 'Rate is required.' })
  .transform((v, ctx) => {
    const paise = rupeesToPaise(v);
    if (paise === null || paise > MAX_RATE_PAISE) {
      ctx.addIssue({
        code: 'custom',
        message: 'Rate must be an amount in rupees with at most 2 decimals, up to 100000.',
      });
      return z.NEVER;
    }
    return paise;
  });

export const CreditCountSchema = z
  .number({ error: 'Count is required.' })
  .int('Count must be a whole number.')
  .min(1, 'Count must be at least 1.')
  .max(MAX_CREDIT_COUNT, `Count must be at most ${MAX_CREDIT_COUNT}.`);

/** POST /api/credits: Admin adds/removes; a reseller transfers to / takes back from its users. */
export const CreateCreditBodySchema = z.object({
  to: EmailSchema,
  creditType: CreditTypeSchema,
  count: CreditCountSchema,
  rate: RateSchema,
  type: CreditTransactionTypeSchema,
  reason: text()
    .trim()
    .max(500, 'Reason must be at most 500 characters.')
    .optional()
    .transform((v) => (v ? v : undefined)),
});
export type CreateCreditBody = z.input<typeof CreateCreditBodySchema>;
export type CreateCreditInput = z.output<typeof CreateCreditBodySchema>;

export const CreditTransactionSchema = z.object({
  _id: z.string(),
  id: z.string(),
  to: z.string(),
  toName: z.string(),
  by: z.string(),
  byName: z.string(),
  type: z.enum(CREDIT_TRANSACTION_TYPES),
  creditType: z.enum(CREDIT_TYPES),
  count: z.number(),
  /** Rupees per credit; null when not recorded (campaign debits and refunds). */
  rate: z.number().nullable(),
  totalAmount: z.number().nullable(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type CreditTransaction = z.infer<typeof CreditTransactionSchema>;

export const CreditTransactionListSchema = z.object({
  transactions: z.array(CreditTransactionSchema),
  /** Pass as `cursor` for the next `limit` entries; null when none are left. */
  nextCursor: z.string().nullable(),
});
export type CreditTransactionList = z.infer<typeof CreditTransactionListSchema>;

export const CreateCreditReplySchema = z.object({
  message: z.string(),
  /** The entries written: one, or two for a reseller's transfer. */
  transactions: z.array(CreditTransactionSchema),
});
export type CreateCreditReply = z.infer<typeof CreateCreditReplySchema>;

/** A query value where an empty string means "not set". */
const emptyToUndefined = <T extends z.ZodType<unknown, string>>(schema: T) =>
  z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(schema.optional());

/**
 * GET /api/credits/balances (a map of email to map of credit type to number): email →
 * credit type → remaining balance, over existing balance rows, bounded by BalancesQuerySchema.
 * The next page's cursor travels in the BALANCES_NEXT_CURSOR_HEADER response header (absent on
 * the last page), since any key in the map itself could collide with an email.
 */
export const BalancesSchema = z.record(z.string(), z.record(z.string(), z.number()));
export type Balances = z.infer<typeof BalancesSchema>;
/** Response header of a balances page: the `cursor` of the next one, percent-encoded. */
export const BALANCES_NEXT_CURSOR_HEADER = 'x-next-cursor';

const balancesLimitMessage = server.pageLimit(BALANCES_PAGE_MAX);
/**
 * GET /api/credits/balances query. `email`: that one user's balances only (404 { message }
 * when the user is outside the caller's scope, like /api/credits/user/{email}; a user with no
 * balance rows maps to {}). Without it: the users of the caller's scope that hold balance
 * rows, ordered by email, `limit` of them, after `cursor` (the last email of the previous
 * page, as X-Next-Cursor gave it). Empty values mean "not set".
 */
export const BalancesQuerySchema = z.object({
  email: emptyToUndefined(EmailSchema),
  cursor: emptyToUndefined(text().max(254, server.invalidCursor)),
  limit: z.coerce
    .number({ error: balancesLimitMessage })
    .int(balancesLimitMessage)
    .min(1, balancesLimitMessage)
    .max(BALANCES_PAGE_MAX, balancesLimitMessage)
    .default(BALANCES_PAGE_DEFAULT),
});
export type BalancesQuery = z.input<typeof BalancesQuerySchema>;
export type BalancesFilters = z.output<typeof BalancesQuerySchema>;

const DateParam = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are YYYY-MM-DD.')
      .refine((d) => {
        // Date.parse rolls 2024-02-31 over to March; a real day reads back unchanged.
        const t = Date.parse(`${d}T00:00:00Z`);
        return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d;
      }, 'Enter a real date.')
      .optional(),
  );

/** GET /api/credits/history (and its export): empty strings mean "not set". */
export const HistoryQuerySchema = z
  .object({
    startDate: DateParam,
    endDate: DateParam,
    userEmail: emptyToUndefined(EmailSchema),
    transactionType: emptyToUndefined(CreditTransactionTypeSchema),
    creditType: emptyToUndefined(CreditTypeSchema),
    tzOffset: TzOffsetSchema,
    cursor: emptyToUndefined(BigintCursorSchema),
    limit: z.coerce.number().int().min(1).max(HISTORY_PAGE_MAX).default(HISTORY_PAGE_DEFAULT),
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
    message: 'Start Date must not be after End Date.',
    path: ['endDate'],
  });
export type HistoryQuery = z.input<typeof HistoryQuerySchema>;
export type HistoryFilters = z.output<typeof HistoryQuerySchema>;

export const RemainingCreditSchema = z.object({ creditType: z.string(), balance: z.number() });
export const FilterableUserSchema = z.object({ name: z.string(), email: z.string() });

export const HistoryReplySchema = z.object({
  transactions: z.array(CreditTransactionSchema),
  /** The caller's own balances (non-admins), first page only. */
  userRemainingCredits: z.array(RemainingCreditSchema).optional(),
  allAvailableCreditTypes: z.array(z.string()).optional(),
  allFilterableUsers: z.array(FilterableUserSchema).optional(),
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type HistoryReply = z.infer<typeof HistoryReplySchema>;

/** GET /api/credits and /api/credits/user/{email}: newest first, keyset pages of `limit`. */
export const CREDIT_LIST_DEFAULT = 100;
export const CREDIT_LIST_MAX = 500;
export const CreditListQuerySchema = z.object({
  limit: z.coerce
    .number({ error: `Limit must be a whole number from 1 to ${CREDIT_LIST_MAX}.` })
    .int(`Limit must be a whole number from 1 to ${CREDIT_LIST_MAX}.`)
    .min(1, `Limit must be a whole number from 1 to ${CREDIT_LIST_MAX}.`)
    .max(CREDIT_LIST_MAX, `Limit must be a whole number from 1 to ${CREDIT_LIST_MAX}.`)
    .default(CREDIT_LIST_DEFAULT),
  cursor: emptyToUndefined(BigintCursorSchema),
});
export type CreditListQuery = z.input<typeof CreditListQuerySchema>;
export type CreditListFilters = z.output<typeof CreditListQuerySchema>;

/** Any string: an email that cannot exist answers 404, like one out of scope. */
export const CreditUserParamsSchema = z.object({ email: text() });

/** Longest Idempotency-Key accepted (Stripe's limit). */
export const IDEMPOTENCY_KEY_MAX = 255;
