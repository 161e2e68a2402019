import type { Claimed, SendResult } from './dispatch.repo.js';
import {
  ProviderSendError,
  type BatchAnswer,
  type OutboundMessage,
  type ProviderAdapter,
  type ProviderError,
} from '../providers/provider.js';

/**
 * Sending claimed rows through a provider's adapter and turning every answer into
 * the row's next state: one request per message, or per group of messages when the adapter
 * has `sendBatch`. Nothing here rejects: every failure becomes a result.
 */

export interface Sender {
  adapter: ProviderAdapter;
  build: (phone: string) => OutboundMessage;
  options: { maxAttempts: number; sendTimeoutMs: number };
  /** The wait before retry number `attempt + 1`. */
  backoff: (attempt: number) => number;
}

/** How many rows go in one request: the adapter's batch, at most half the places. */
export function groupSize(adapter: ProviderAdapter, places: number): number {
  if (!adapter.sendBatch) return 1;
  return Math.max(1, Math.min(adapter.maxBatch ?? 1, Math.floor(places / 2)));
}

/** Sends `rows` (one request, or one each without sendBatch); one result per row, in order. */
export async function sendRows(s: Sender, rows: readonly Claimed[]): Promise<SendResult[]> {
  const signal = AbortSignal.timeout(s.options.sendTimeoutMs);
  if (rows.length === 1 || !s.adapter.sendBatch) {
    return Promise.all(
      rows.map(async (row) => {
        try {
          const accepted = await s.adapter.send(s.build(row.phone), signal);
          return resultOf(s, row, { ok: true, providerMessageId: accepted.providerMessageId });
        } catch (err) {
          return resultOf(s, row, failure(err));
        }
      }),
    );
  }
  let answers: BatchAnswer[];
  try {
    answers = await s.adapter.sendBatch(
      rows.map((r) => s.build(r.phone)),
      signal,
    );
  } catch (err) {
    const f = failure(err);
    return rows.map((row) => resultOf(s, row, f));
  }
  return rows.map((row, i) => {
    const a = answers[i] as BatchAnswer;
    return resultOf(s, row, a.ok ? a : { ok: false, error: a.error, kind: undefined });
  });
}

type Outcome =
  | { ok: true; providerMessageId: string }
  /** `kind` undefined: the adapter classifies the error. */
  | { ok: false; error: ProviderError; kind: 'retryable' | undefined };

/** A thrown error: the provider's refusal, or one that never reached it (retryable). */
function failure(err: unknown): Outcome {
  if (err instanceof ProviderSendError) return { ok: false, error: err.error, kind: undefined };
  const text = err instanceof Error ? err.message : String(err);
  return { ok: false, error: { code: 'network', text }, kind: 'retryable' };
}

function resultOf(s: Sender, row: Claimed, o: Outcome): SendResult {
  const base = { phone: row.phone, attempts: row.attempts };
  if (o.ok) return { ...base, state: 'sent', providerMessageId: o.providerMessageId };
  const { error } = o;
  const kind = o.kind ?? s.adapter.classifyError(error);
  const { code, text } = error;
  if (kind === 'permanent') return { ...base, state: 'failed', code, text };
  // The person stopped the sender's messages: failed with the provider's text, and the number
  // goes on the owner's suppression list with the result's write (result-writer.ts).
  if (kind === 'opted_out') return { ...base, state: 'failed', code, text, optedOut: true };
  if (kind === 'pause_campaign') {
    // The whole campaign must stop (spam limit, paused template): this row waits for the resume,
    // its try not counted; the result writer pauses the campaign and tells the Admins.
    return {
      ...base,
      state: 'queued',
      code,
      text,
      retryAt: new Date(),
      counted: false,
      pauseCampaign: true,
    };
  }
  if (kind === 'throttled') {
    // The provider's rate, not this recipient: back in the queue, the try not counted.
    const wait = error.retryAfterSeconds === undefined ? undefined : error.retryAfterSeconds * 1000;
    const retryAt = new Date(Date.now() + (wait ?? 0));
    return { ...base, state: 'queued', code, text, retryAt, counted: false, throttleMs: wait };
  }
  // Transient, or this recipient's own limit (131056): only this row waits.
  if (row.attempts >= s.options.maxAttempts) return { ...base, state: 'failed', code, text };
  const retryAt = new Date(Date.now() + s.backoff(row.attempts));
  return { ...base, state: 'queued', code, text, retryAt, counted: true };
}
