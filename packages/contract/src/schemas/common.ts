import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../limits.js';

export const EmailSchema = z
  .string({ error: 'Email is required.' })
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Email is too long.')
  .toLowerCase()
  .pipe(z.email('Enter a valid email address.'));

export const PasswordSchema = z
  .string({ error: 'Password is required.' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`);

export const IdParamsSchema = z.object({ id: z.uuid('Not found.') });
export type IdParams = z.infer<typeof IdParamsSchema>;

export const MessageSchema = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof MessageSchema>;

/** An optional free-text field: trimmed, empty string means "not set". */
export function optionalText(max: number, label: string) {
  return z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .optional()
    .transform((v) => (v ? v : undefined));
}

/** Minutes as Date.getTimezoneOffset() gives them, so date filters are the viewer's local days. */
export const TzOffsetSchema = z.coerce.number().int().min(-840).max(840).default(0);
