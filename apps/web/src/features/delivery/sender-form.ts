import {
  senderAddressRequired,
  CreateSenderBodySchema,
  SENDER_ADDRESS_LABELS,
  UpdateSenderBodySchema,
  server as msg,
  type CreateSenderBody,
  type ProviderKind,
  type Sender,
  type UpdateSenderBody,
} from '@herald/contract';
import type { z } from 'zod';
import { firstIssues, type FieldErrors } from '../../components/field-errors';

/** The sender form's fields as typed; an empty daily limit means no limit. */
export interface SenderFormValues {
  providerId: string;
  name: string;
  address: string;
  ratePerSecond: string;
  dailyLimit: string;
}

export const emptySenderValues: SenderFormValues = {
  providerId: '',
  name: '',
  address: '',
  ratePerSecond: '',
  dailyLimit: '',
};

export function senderFormValues(s: Sender): SenderFormValues {
  return {
    providerId: s.providerId,
    name: s.name,
    address: s.address,
    ratePerSecond: String(s.ratePerSecond),
    dailyLimit: s.dailyLimit === null ? '' : String(s.dailyLimit),
  };
}

type Parsed<B> = { body: B; errors: null } | { body: null; errors: FieldErrors };

function limits(v: SenderFormValues) {
  return {
    name: v.name,
    address: v.address,
    ratePerSecond: v.ratePerSecond.trim(),
    dailyLimit: v.dailyLimit.trim() === '' ? null : v.dailyLimit.trim(),
  };
}

/** The schema's answer, plus the address a kind needs (the server's senderAddressRequired). */
function withAddressRule<B>(
  parsed: { success: true; data: B } | { success: false; error: z.ZodError },
  v: SenderFormValues,
  kind: ProviderKind | null,
): Parsed<B> {
  const errors = parsed.success ? {} : firstIssues(parsed.error);
  if (kind && senderAddressRequired(kind) && !errors.address && v.address.trim() === '') {
    errors.address = msg.senderAddressRequired(SENDER_ADDRESS_LABELS[kind]);
  }
  if (parsed.success && Object.keys(errors).length === 0)
    return { body: parsed.data, errors: null };
  return { body: null, errors };
}

/** A new sender, checked with the server's own schema, so the form and POST refuse alike. */
export function parseNewSender(
  v: SenderFormValues,
  kind: ProviderKind | null,
): Parsed<CreateSenderBody> {
  const parsed = CreateSenderBodySchema.safeParse({ providerId: v.providerId, ...limits(v) });
  return withAddressRule(parsed, v, kind);
}

/** An edit of a sender: name, address and limits, checked as PUT checks them. */
export function parseSenderEdit(v: SenderFormValues, kind: ProviderKind): Parsed<UpdateSenderBody> {
  return withAddressRule(UpdateSenderBodySchema.safeParse(limits(v)), v, kind);
}
