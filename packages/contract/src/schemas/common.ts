import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../limits.js';
import { server as msg } from '../server-messages.js';
import { isCommonPassword, PASSWORD_TOO_COMMON } from '../password-policy.js';

/** Whether a string holds no NUL character: PostgreSQL refuses `\0` in text, so it never reaches it. */
export const hasNoNul = (v: string) => !v.includes('\0');

/**
 * The string every route input starts from: path parameters, query values, JSON bodies and
 * multipart fields. It refuses NUL, which PostgreSQL cannot store or compare in text.
 */
export function text(params?: { error: string }) {
  return z.string(params).refine(hasNoNul, msg.textHasNul);
}

/** The largest value of a PostgreSQL bigint (a keyset cursor is one). */
const BIGINT_MAX = 9223372036854775807n;

/** A keyset cursor over a bigint id: digits only, within PostgreSQL's bigint range. */
export const BigintCursorSchema = z
  .string()
  .regex(/^\d{1,19}$/, msg.invalidCursor)
  .refine((v) => /^\d{1,19}$/.test(v) && BigInt(v) <= BIGINT_MAX, msg.invalidCursor);

export const EmailSchema = text({ error: 'Email is required.' })
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Email is too long.')
  .toLowerCase()
  .pipe(z.email('Enter a valid email address.'));

export const PasswordSchema = text({ error: 'Password is required.' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`)
  // Checks the loaded list (password-policy.ts): load it with loadCommonPasswords() first.
  .refine((p) => !isCommonPassword(p), PASSWORD_TOO_COMMON);

export const IdParamsSchema = z.object({ id: z.uuid('Not found.') });
export type IdParams = z.infer<typeof IdParamsSchema>;

export const MessageSchema = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof MessageSchema>;

/** An optional free-text field: trimmed, empty string means "not set". */
export function optionalText(max: number, label: string) {
  return text()
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .optional()
    .transform((v) => (v ? v : undefined));
}

/** Minutes as Date.getTimezoneOffset() gives them, so date filters are the viewer's local days. */
export const TzOffsetSchema = z.coerce.number().int().min(-840).max(840).default(0);

/**
 * A keyset cursor of a list ordered by (created_at, id): the last row's created_at in
 * microseconds since the epoch and its id, `<micros>_<uuid>`. Missing or malformed: invalidCursor.
 */
export function createdAtIdCursor() {
  return text({ error: msg.invalidCursor })
    .regex(
      /^\d{1,16}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      msg.invalidCursor,
    )
    .transform((v) => {
      const [micros = '', id = ''] = v.split('_');
      return { micros, id: id.toLowerCase() };
    });
}
