import {
  CREDIT_TYPES,
  UpdateRoutesBodySchema,
  kindCarries,
  server as msg,
  ui,
  type CreditRoute,
  type CreditType,
  type Sender,
  type UpdateRoutesBody,
} from '@herald/contract';
import type { SelectOption } from '../../components/form-field';

/** The routing form: each credit type's sender id, '' for the default sender. */
export type RouteValues = Record<CreditType, string>;

export function routeValues(routes: readonly CreditRoute[]): RouteValues {
  const values = Object.fromEntries(CREDIT_TYPES.map((t) => [t, ''])) as RouteValues;
  for (const r of routes) values[r.creditType] = r.senderId ?? '';
  return values;
}

export interface RouteOption extends SelectOption {
  /** A sender whose kind cannot carry this credit type: shown, not chosen. */
  disabled: boolean;
}

/**
 * A credit type's choices: the default sender first, then every sender; those of an SMS
 * gateway are disabled for the rich types, with the reason in their label (the same rule the
 * server applies, kindCarries).
 */
export function routeOptions(creditType: CreditType, senders: readonly Sender[]): RouteOption[] {
  const fallback = senders.find((s) => s.isDefault);
  return [
    { value: '', label: ui.providers.defaultSender(fallback?.name ?? null), disabled: false },
    ...senders.map((s) => {
      const carries = kindCarries(s.providerKind, creditType);
      const label = `${s.name} · ${s.provider}`;
      return {
        value: s.id,
        label: carries ? label : `${label} (${ui.providers.smsOnly})`,
        disabled: !carries,
      };
    }),
  ];
}

type Parsed =
  | { body: UpdateRoutesBody; errors: null }
  | { body: null; errors: Partial<Record<CreditType, string>> };

/** Every credit type's route, refused as the server refuses a rich type sent to an SMS gateway. */
export function parseRoutes(values: RouteValues, senders: readonly Sender[]): Parsed {
  const errors: Partial<Record<CreditType, string>> = {};
  for (const type of CREDIT_TYPES) {
    const sender = senders.find((s) => s.id === values[type]);
    if (values[type] !== '' && !sender) errors[type] = msg.senderNotFound;
    else if (sender && !kindCarries(sender.providerKind, type)) {
      errors[type] = msg.routeRichToSms(type);
    }
  }
  if (Object.keys(errors).length > 0) return { body: null, errors };
  const parsed = UpdateRoutesBodySchema.safeParse({
    routes: CREDIT_TYPES.map((creditType) => ({
      creditType,
      senderId: values[creditType] === '' ? null : values[creditType],
    })),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const index = Number(issue?.path[1] ?? 0);
    return { body: null, errors: { [CREDIT_TYPES[index] ?? CREDIT_TYPES[0]]: issue?.message } };
  }
  return { body: parsed.data, errors: null };
}
