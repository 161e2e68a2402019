import http from 'node:http';
import { createHmac } from 'node:crypto';
import type { StatusEventState } from '@herald/contract';

/**
 * The simulator's status events: each accepted message's sent, delivered or failed,
 * and read events wait in one FIFO per stage (the delay is the same for every message, so each
 * FIFO stays in due order) and one timer drains them: no timer per message, so 5,000 msg/s
 * cost one tick every 10 ms. Due events are POSTed to the callback URL in signed batches;
 * a batch the receiver refuses (non-2xx, network error) is kept and sent again after a backoff,
 * so nothing is lost. The timer runs only while there is something to do.
 */

export interface WireStatusEvent {
  reference: string;
  id: string;
  status: StatusEventState;
  /** ISO time the event happened (its due time). */
  timestamp: string;
  error?: { code: number; title: string };
}

/** What happens to an accepted message, chosen when it is accepted. */
export interface Outcome {
  failed: boolean;
  read: boolean;
}

/** A message failed by its outcome reports this (WhatsApp's 'Message not delivered'). */
export const NOT_DELIVERED_ERROR = { code: 131049, title: 'Message not delivered' } as const;

/** Events per POST and how often a partial batch goes out. */
export const CALLBACK_BATCH_MAX = 500;
export const CALLBACK_FLUSH_MS = 50;
/** Batches in flight at once: a receiver answers after its write, so one at a time would cap us. */
const MAX_IN_FLIGHT = 4;
const TICK_MS = 10;
const BACKOFF_FIRST_MS = 100;
const BACKOFF_MAX_MS = 5_000;
const POST_TIMEOUT_MS = 15_000;

interface Scheduled {
  due: number;
  reference: string;
  id: string;
  outcome: Outcome;
}

/** An array queue with a moving head (Array#shift is O(n)). */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;
  get size(): number {
    return this.items.length - this.head;
  }
  push(item: T): void {
    this.items.push(item);
  }
  peek(): T | undefined {
    return this.items[this.head];
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
  take(n: number): T[] {
    const out = this.items.slice(this.head, this.head + n);
    this.head += out.length;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
    return out;
  }
}

/** The HMAC header value the simulator signs a callback body with. */
export function signBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export class StatusEventQueue {
  /** Stage 0: sent is due; stage 1: delivered/failed is due; stage 2: read is due. */
  private readonly stages = [new Fifo<Scheduled>(), new Fifo<Scheduled>(), new Fifo<Scheduled>()];
  private readonly outbox = new Fifo<WireStatusEvent>();
  private readonly retries: WireStatusEvent[][] = [];
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT });
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private lastFlush = 0;
  private backoff = 0;
  private retryAt = 0;
  private closed = false;
  /** Events accepted messages will still report, and not yet taken by the receiver. */
  pending = 0;
  /** Events the receiver answered 2xx for. */
  delivered = 0;

  constructor(
    private readonly opts: {
      delayMs: number;
      secret: string;
      callbackUrl?: string;
      onCallbackError?: (message: string) => void;
    },
  ) {}

  setCallbackUrl(url: string): void {
    this.opts.callbackUrl = url;
    this.wake();
  }

  /** Schedules the events of a message accepted now. */
  schedule(reference: string, id: string, outcome: Outcome, now = Date.now()): void {
    this.pending += outcome.failed ? 2 : outcome.read ? 3 : 2;
    this.stages[0]!.push({ due: now + this.opts.delayMs, reference, id, outcome });
    this.wake();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.agent.destroy();
  }

  /**
   * The simulator's own clock for its pending status events (a stand-in provider, not the
   * app's periodic work): it runs only while events are due and stops when none is left.
   */
  private wake(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  private tick(): void {
    const now = Date.now();
    this.advance(now);
    this.flush(now);
    const idle =
      this.stages.every((s) => s.size === 0) &&
      this.inFlight === 0 &&
      (!this.opts.callbackUrl || (this.outbox.size === 0 && this.retries.length === 0));
    if (idle && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Moves every due stage entry to the outbox as an event, and on to its next stage. */
  private advance(now: number): void {
    const [sent, final, read] = this.stages as [Fifo<Scheduled>, Fifo<Scheduled>, Fifo<Scheduled>];
    const delay = this.opts.delayMs;
    for (let s = sent.peek(); s && s.due <= now; s = sent.peek()) {
      sent.shift();
      this.emit(s, 'sent');
      final.push({ ...s, due: s.due + delay });
    }
    for (let s = final.peek(); s && s.due <= now; s = final.peek()) {
      final.shift();
      this.emit(s, s.outcome.failed ? 'failed' : 'delivered');
      if (!s.outcome.failed && s.outcome.read) read.push({ ...s, due: s.due + delay });
    }
    for (let s = read.peek(); s && s.due <= now; s = read.peek()) {
      read.shift();
      this.emit(s, 'read');
    }
  }

  private emit(s: Scheduled, status: StatusEventState): void {
    const event: WireStatusEvent = {
      reference: s.reference,
      id: s.id,
      status,
      timestamp: new Date(s.due).toISOString(),
    };
    if (status === 'failed') event.error = { ...NOT_DELIVERED_ERROR };
    this.outbox.push(event);
  }

  private flush(now: number): void {
    const url = this.opts.callbackUrl;
    if (!url || now < this.retryAt) return;
    while (this.inFlight < MAX_IN_FLIGHT) {
      let batch = this.retries.shift();
      if (!batch) {
        const full = this.outbox.size >= CALLBACK_BATCH_MAX;
        const due = this.outbox.size > 0 && now - this.lastFlush >= CALLBACK_FLUSH_MS;
        if (!full && !due) return;
        batch = this.outbox.take(CALLBACK_BATCH_MAX);
        if (!full) this.lastFlush = now;
      }
      this.post(url, batch);
    }
  }

  private post(url: string, batch: WireStatusEvent[]): void {
    this.inFlight++;
    const body = JSON.stringify({ events: batch });
    let settled = false;
    const done = (ok: boolean, why?: string) => {
      if (settled) return;
      settled = true;
      this.inFlight--;
      if (ok) {
        this.delivered += batch.length;
        this.pending -= batch.length;
        this.backoff = 0;
        return;
      }
      if (this.closed) return;
      this.retries.push(batch);
      this.backoff = Math.min(BACKOFF_MAX_MS, this.backoff ? this.backoff * 2 : BACKOFF_FIRST_MS);
      this.retryAt = Date.now() + this.backoff;
      this.opts.onCallbackError?.(`status callback to ${url} failed (${why}); retrying`);
      this.wake();
    };
    const req = http.request(url, {
      method: 'POST',
      agent: this.agent,
      timeout: POST_TIMEOUT_MS,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-herald-signature': signBody(this.opts.secret, body),
      },
    });
    req.on('response', (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      res.on('end', () => done(status >= 200 && status < 300, `HTTP ${status}`));
      res.on('error', (err) => done(false, err.message));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => done(false, err.message));
    req.end(body);
  }
}
