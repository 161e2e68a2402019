import {
  createWebhookBodySchema,
  ui,
  WEBHOOK_EVENT_TYPES,
  WebhookSettingsBodySchema,
  type CreateWebhookInput,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@herald/contract';
import { firstIssues, type FieldErrors } from '../../components/field-errors';

/** The Webhooks section's pure rules, apart from its components (docs/api.md, Webhooks). */

const t = ui.webhooks;

/** The endpoint form as typed. */
export interface WebhookFormValues {
  url: string;
  events: readonly WebhookEventType[];
  description: string;
}

/** A new endpoint's form: every event ticked, so one only unticks what it does not want. */
export function newWebhookValues(): WebhookFormValues {
  return { url: '', events: [...WEBHOOK_EVENT_TYPES], description: '' };
}

export function webhookFormValues(e: WebhookEndpoint): WebhookFormValues {
  return { url: e.url, events: e.events, description: e.description };
}

/** One event ticked or unticked, the list kept in the contract's order. */
export function toggleEvent(
  events: readonly WebhookEventType[],
  event: WebhookEventType,
  on: boolean,
): WebhookEventType[] {
  const chosen = new Set(events);
  if (on) chosen.add(event);
  else chosen.delete(event);
  return WEBHOOK_EVENT_TYPES.filter((e) => chosen.has(e));
}

/**
 * The form's check before a request, by the server's own schema (https unless the server's list
 * says plain http is allowed): the body to send, or the first message of each field.
 */
export function checkWebhookForm(
  values: WebhookFormValues,
  httpsOnly: boolean,
): { body: CreateWebhookInput } | { errors: FieldErrors } {
  const parsed = createWebhookBodySchema(httpsOnly).safeParse(values);
  return parsed.success ? { body: parsed.data } : { errors: firstIssues(parsed.error) };
}

/** The low-balance field as typed: empty is "no alert", else whole credits within the limit. */
export function checkThreshold(typed: string): { value: number | null } | { error: string } {
  const trimmed = typed.trim();
  const candidate = trimmed === '' ? null : /^\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  const parsed = WebhookSettingsBodySchema.safeParse({ lowBalanceThreshold: candidate });
  if (parsed.success) return { value: parsed.data.lowBalanceThreshold };
  return { error: parsed.error.issues[0]?.message ?? t.thresholdFailed };
}

export interface Shown {
  label: string;
  /** A Bootstrap colour for its badge. */
  variant: string;
  /** Why, or since when, in a line under the badge. */
  detail?: string;
}

/** An endpoint's state: on, on but failing (since when), or off (and why, when not by hand). */
export function endpointStatus(e: WebhookEndpoint, formatWhen: (iso: string) => string): Shown {
  if (e.enabled) {
    return e.failingSince
      ? { label: t.failing, variant: 'warning', detail: t.failingSince(formatWhen(e.failingSince)) }
      : { label: t.enabled, variant: 'success' };
  }
  const off = { label: t.disabled, variant: 'secondary' };
  if (e.disabledReason === 'gone') return { ...off, variant: 'danger', detail: t.disabledGone };
  if (e.disabledReason === 'failing') {
    return { ...off, variant: 'danger', detail: t.disabledFailing };
  }
  return off;
}

/** An attempt's outcome: the endpoint's HTTP status, or that none came; green when 2xx. */
export function attemptStatus(a: { statusCode: number | null; ok: boolean }): Shown {
  return {
    label: a.statusCode === null ? t.noAnswer : String(a.statusCode),
    variant: a.ok ? 'success' : 'danger',
  };
}

/** What a poll after "Send test event" waits for: a newer delivery than the newest seen then. */
export interface TestPoll {
  /** When the test was queued (ms, the browser's clock). */
  since: number;
  /** The newest delivery's id before it; null when the log was empty. */
  before: string | null;
}

/** How long the log is polled after a test event at most, and how often. */
export const TEST_POLL_MS = 15_000;
export const TEST_POLL_EVERY_MS = 1_000;

/** Whether the log should be fetched again: a test is waiting and no newer delivery arrived. */
export function keepPolling(
  poll: TestPoll | null,
  now: number,
  newest: WebhookDelivery | undefined,
): boolean {
  if (!poll || now - poll.since > TEST_POLL_MS) return false;
  return (newest?.id ?? null) === poll.before;
}
