import {
  ProviderTestBodySchema,
  ui,
  type Provider,
  type ProviderTestBody,
  type Sender,
} from '@herald/contract';
import { firstIssues, type FieldErrors } from '../../components/field-errors';

export interface TestMessageValues {
  senderId: string;
  to: string;
  message: string;
}

/** The senders of one provider, the only ones its test may go through. */
export function sendersOf(provider: Provider, senders: readonly Sender[]): Sender[] {
  return senders.filter((s) => s.providerId === provider.id);
}

/** The form as it opens: the provider's first sender and a message to send. */
export function testMessageValues(senders: readonly Sender[]): TestMessageValues {
  return { senderId: senders[0]?.id ?? '', to: '', message: ui.providers.testDefaultMessage };
}

/** Checked with the server's own schema (digits with country code, the message's length). */
export function parseTestMessage(
  v: TestMessageValues,
): { body: ProviderTestBody; errors: null } | { body: null; errors: FieldErrors } {
  const parsed = ProviderTestBodySchema.safeParse(v);
  return parsed.success
    ? { body: parsed.data, errors: null }
    : { body: null, errors: firstIssues(parsed.error) };
}
