import { UpdateSenderBodySchema, type Sender, type UpdateSenderBody } from '@herald/contract';
import { firstIssues, type FieldErrors } from '../../components/field-errors';

/** The edit form's fields as typed; an empty daily limit means no limit. */
export interface SenderFormValues {
  ratePerSecond: string;
  dailyLimit: string;
}

export function senderFormValues(s: Sender): SenderFormValues {
  return {
    ratePerSecond: String(s.ratePerSecond),
    dailyLimit: s.dailyLimit === null ? '' : String(s.dailyLimit),
  };
}

/** Checked with the server's own schema, so the form and PUT refuse the same values. */
export function parseSenderForm(
  v: SenderFormValues,
): { body: UpdateSenderBody; errors: null } | { body: null; errors: FieldErrors } {
  const parsed = UpdateSenderBodySchema.safeParse({
    ratePerSecond: v.ratePerSecond.trim(),
    dailyLimit: v.dailyLimit.trim() === '' ? null : v.dailyLimit.trim(),
  });
  return parsed.success
    ? { body: parsed.data, errors: null }
    : { body: null, errors: firstIssues(parsed.error) };
}
