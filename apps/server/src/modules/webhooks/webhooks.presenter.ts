import type { WebhookDelivery, WebhookEndpoint } from '@herald/contract';
import type { DeliveryRow, EndpointRow } from './webhooks.repo.js';

/** An endpoint as the contract shows it; the sealed secret never leaves the repository. */
export function presentEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since ? row.failing_since.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    lastAttempt:
      row.last_at && row.last_ok !== null
        ? { at: row.last_at.toISOString(), statusCode: row.last_status, ok: row.last_ok }
        : null,
  };
}

export function presentDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    messageId: `msg_${row.event_id}`,
    eventType: row.type,
    attempt: row.attempt,
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    ok: row.ok,
    error: row.error,
    createdAt: row.created_at.toISOString(),
    nextAttemptAt: row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
  };
}
