import { describe, expect, it } from 'vitest';
import {
  server,
  ui,
  LOW_BALANCE_THRESHOLD_MAX,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@herald/contract';
import {
  attemptStatus,
  checkThreshold,
  checkWebhookForm,
  endpointStatus,
  keepPolling,
  newWebhookValues,
  TEST_POLL_MS,
  toggleEvent,
} from './webhooks-logic';

const t = ui.webhooks;
const endpoint = (over: Partial<WebhookEndpoint>): WebhookEndpoint => ({
  id: 'e1',
  url: 'https://example.com/hook',
  description: '',
  events: ['ticket.updated'],
  enabled: true,
  disabledReason: null,
  failingSince: null,
  createdAt: '2026-12-01T10:00:00.000Z',
  lastAttempt: null,
  ...over,
});
const delivery = (id: string): WebhookDelivery => ({
  id,
  messageId: `msg_${id}`,
  eventType: 'webhook.test',
  attempt: 1,
  statusCode: 200,
  durationMs: 12,
  ok: true,
  error: null,
  createdAt: '2026-12-01T10:00:00.000Z',
  nextAttemptAt: null,
});

describe('checkWebhookForm', () => {
  it('answers the trimmed body the server takes', () => {
    const v = { url: ' https://example.com/h ', description: ' CI ' };
    expect(checkWebhookForm({ ...v, events: ['ticket.updated', 'ticket.updated'] }, true)).toEqual({
      body: { url: 'https://example.com/h', events: ['ticket.updated'], description: 'CI' },
    });
  });

  it('refuses plain http only where the server requires https', () => {
    const v = { ...newWebhookValues(), url: 'http://127.0.0.1:9000/h' };
    expect(checkWebhookForm(v, true)).toEqual({ errors: { url: server.webhookUrlNotHttps } });
    expect(checkWebhookForm(v, false)).toMatchObject({ body: { url: v.url } });
  });

  it('answers the server’s messages per field', () => {
    const found = checkWebhookForm(
      { url: '', events: [], description: 'x'.repeat(WEBHOOK_DESCRIPTION_MAX + 1) },
      true,
    );
    expect(found).toEqual({
      errors: {
        url: server.webhookUrlRequired,
        events: server.webhookEventsRequired,
        description: server.webhookDescriptionTooLong(WEBHOOK_DESCRIPTION_MAX),
      },
    });
    expect(checkWebhookForm({ ...newWebhookValues(), url: 'https://a:b@x.com/' }, true)).toEqual({
      errors: { url: server.webhookUrlHasCredentials },
    });
  });
});

describe('toggleEvent', () => {
  it('keeps the contract’s order and each event once', () => {
    const last = WEBHOOK_EVENT_TYPES.at(-1)!;
    const first = WEBHOOK_EVENT_TYPES[0];
    expect(toggleEvent([last], first, true)).toEqual([first, last]);
    expect(toggleEvent([first, last], first, true)).toEqual([first, last]);
    expect(toggleEvent([first, last], last, false)).toEqual([first]);
    expect(newWebhookValues().events).toEqual(WEBHOOK_EVENT_TYPES);
  });
});

describe('checkThreshold', () => {
  it('reads empty as none and digits as credits', () => {
    expect(checkThreshold('  ')).toEqual({ value: null });
    expect(checkThreshold(' 500 ')).toEqual({ value: 500 });
  });

  it('refuses what the server refuses, with its message', () => {
    const error = server.lowBalanceThresholdInvalid(LOW_BALANCE_THRESHOLD_MAX);
    for (const typed of ['0', '1.5', '-3', 'ten', String(LOW_BALANCE_THRESHOLD_MAX + 1)]) {
      expect(checkThreshold(typed)).toEqual({ error });
    }
  });
});

describe('how an endpoint and an attempt are shown', () => {
  const when = (iso: string) => `at ${iso}`;
  it('says why an endpoint is off, and since when one is failing', () => {
    expect(endpointStatus(endpoint({}), when)).toEqual({ label: t.enabled, variant: 'success' });
    expect(endpointStatus(endpoint({ failingSince: 'x' }), when)).toEqual({
      label: t.failing,
      variant: 'warning',
      detail: t.failingSince('at x'),
    });
    const off = (disabledReason: WebhookEndpoint['disabledReason']) =>
      endpointStatus(endpoint({ enabled: false, disabledReason }), when);
    expect(off('manual')).toEqual({ label: t.disabled, variant: 'secondary' });
    expect(off('gone')).toEqual({ label: t.disabled, variant: 'danger', detail: t.disabledGone });
    expect(off('failing')).toEqual({
      label: t.disabled,
      variant: 'danger',
      detail: t.disabledFailing,
    });
  });

  it('shows the status code, or that no answer came', () => {
    expect(attemptStatus({ statusCode: 200, ok: true })).toEqual({
      label: '200',
      variant: 'success',
    });
    expect(attemptStatus({ statusCode: null, ok: false })).toEqual({
      label: t.noAnswer,
      variant: 'danger',
    });
  });
});

describe('keepPolling', () => {
  it('polls until a newer delivery than the one seen arrives, for a while at most', () => {
    const poll = { since: 1_000, before: 'd1' };
    expect(keepPolling(null, 1_000, delivery('d1'))).toBe(false);
    expect(keepPolling(poll, 2_000, delivery('d1'))).toBe(true);
    expect(keepPolling(poll, 2_000, delivery('d2'))).toBe(false);
    expect(keepPolling(poll, 1_000 + TEST_POLL_MS + 1, delivery('d1'))).toBe(false);
    expect(keepPolling({ since: 1_000, before: null }, 2_000, undefined)).toBe(true);
    expect(keepPolling({ since: 1_000, before: null }, 2_000, delivery('d1'))).toBe(false);
  });
});
