import { CREDIT_TYPES, CreateCreditBodySchema, server, ui, type Role } from '@herald/contract';
import { ApiError, errorMessage } from '../../lib/api-client';
import { firstIssues, type FieldErrors } from '../../components/field-errors';
import type { CreditRequest } from '../../api/credits/create-credit';

/** The form's inputs as typed (strings); numbers are made only when sending. */
export interface CreditFormValues {
  to: string;
  creditType: string;
  type: string;
  count: string;
  rate: string;
  reason: string;
}

export const EMPTY_CREDIT_FORM: CreditFormValues = {
  to: '',
  creditType: CREDIT_TYPES[0],
  type: 'Added',
  count: '',
  rate: '',
  reason: '',
};

export type CheckedCredit = { ok: true; body: CreditRequest } | { ok: false; errors: FieldErrors };

/** '' means "not entered" (the schema then says the field is required). */
function toNumber(text: string): number | undefined {
  const t = text.trim();
  return t === '' ? undefined : Number(t);
}

/**
 * Checks the form with the server's schema. The body sent keeps the rate in rupees: the
 * schema's output holds paise, so only its cleaned `to` and `reason` are taken from it.
 */
export function checkCreditForm(values: CreditFormValues): CheckedCredit {
  const input = {
    to: values.to,
    creditType: values.creditType,
    type: values.type,
    count: toNumber(values.count),
    rate: toNumber(values.rate),
    reason: values.reason,
  };
  const parsed = CreateCreditBodySchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: firstIssues(parsed.error) };
  const { to, creditType, type, count, reason } = parsed.data;
  const rate = input.rate ?? 0; // present: the schema required it
  const body: CreditRequest = { to, creditType, type, count, rate };
  if (reason !== undefined) body.reason = reason;
  return { ok: true, body };
}

/**
 * Whether a failed submission may be retried with the same Idempotency-Key. Yes when the
 * outcome is unknown (network error, 5xx) or the first request is still running; no when the
 * server answered for sure (4xx), so a corrected retry is a new request.
 */
export function keepsIdempotencyKey(err: unknown): boolean {
  if (!(err instanceof ApiError)) return true;
  if (err.status >= 500) return true;
  return err.status === 409 && err.serverMessage === server.idempotencyInProgress;
}

/** Admin's screen says 'Failed to load data.'; the resellers' prefers the server's message. */
export function loadErrorMessage(role: Role, err: unknown): string {
  return role === 'Admin' ? ui.credits.loadFailed : errorMessage(err, ui.credits.pageFailed);
}
