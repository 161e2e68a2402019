import { z } from 'zod';
import {
  WhatsAppFake,
  waStatus,
  type AcceptedMessage,
} from './modules/delivery/providers/fakes/whatsapp-fake.js';

/**
 * The WhatsApp Cloud API fake (providers/fakes/whatsapp-fake.ts) as its own process, so the
 * benchmark measures the app's CPU apart from the provider's (docs/delivery.md, WhatsApp Cloud
 * API). It keeps counts, not requests; caps the sends at WA_FAKE_RATE a second (burst 0.1 s
 * worth, as the simulator) and answers Meta's 130429 above it; reports `sent` then `delivered`
 * for each accepted message to WA_FAKE_CALLBACK_URL, signed with X-Hub-Signature-256; and
 * answers its counters at GET /_fake/stats. Prints `WhatsApp fake running at <url>`.
 */

const EnvSchema = z.object({
  WA_FAKE_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  WA_FAKE_RATE: z.coerce.number().int().min(1).max(100000).default(100),
  WA_FAKE_API_VERSION: z.string().min(1).default('v21.0'),
  WA_FAKE_PHONE_NUMBER_ID: z.string().min(1),
  WA_FAKE_ACCESS_TOKEN: z.string().min(1),
  WA_FAKE_APP_SECRET: z.string().min(1),
  /** The provider's callbackUrl as the app answered it (POST /api/delivery/providers). */
  WA_FAKE_CALLBACK_URL: z
    .string()
    .regex(/^https?:\/\//, 'must be an http:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** From acceptance to `sent`, and from `sent` to `delivered`. */
  WA_FAKE_DELAY_MS: z.coerce.number().int().min(0).max(600000).default(300),
  WA_FAKE_STATUS_BATCH: z.coerce.number().int().min(1).max(1000).default(100),
});

/** How often due statuses are gathered and posted. */
const FLUSH_MS = 50;
/** Webhook POSTs in flight at once; more wait for the next tick. */
const POSTS_IN_FLIGHT = 4;
/** References remembered to count a message sent twice (the crash figure's duplicates). */
const RECENT_REFERENCES = 250_000;

interface Due {
  sent: AcceptedMessage;
  at: number;
}

async function main() {
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const stats = {
    throttled: 0,
    duplicates: 0,
    statusesPosted: 0,
    statusWebhooks: 0,
    statusWebhooksFailed: 0,
    statusesPending: 0,
  };
  const recent = new Set<string>();
  const toSend: Due[] = [];
  const toDeliver: Due[] = [];
  let outbox: Record<string, unknown>[] = [];

  const fake = await WhatsAppFake.start({
    apiVersion: e.WA_FAKE_API_VERSION,
    phoneNumberId: e.WA_FAKE_PHONE_NUMBER_ID,
    accessToken: e.WA_FAKE_ACCESS_TOKEN,
    appSecret: e.WA_FAKE_APP_SECRET,
    port: e.WA_FAKE_PORT,
    keep: 'counts',
    onAccepted(sent) {
      const ref = sent.body.biz_opaque_callback_data;
      if (ref !== undefined) {
        if (recent.has(ref)) stats.duplicates += 1;
        else {
          recent.add(ref);
          if (recent.size > RECENT_REFERENCES) recent.delete(recent.values().next().value!);
        }
      }
      if (e.WA_FAKE_CALLBACK_URL) toSend.push({ sent, at: Date.now() + e.WA_FAKE_DELAY_MS });
    },
    stats: {
      path: '/_fake/stats',
      extra: () => ({
        ...stats,
        statusesPending: toSend.length * 2 + toDeliver.length + outbox.length,
      }),
    },
  });

  // Meta's cap per phone number: a token bucket of 0.1 s worth, refilled at the rate.
  const burst = Math.max(1, e.WA_FAKE_RATE / 10);
  let tokens = burst;
  let filled = performance.now();
  fake.refuse = () => {
    const now = performance.now();
    tokens = Math.min(burst, tokens + ((now - filled) / 1000) * e.WA_FAKE_RATE);
    filled = now;
    if (tokens >= 1) {
      tokens -= 1;
      return null;
    }
    stats.throttled += 1;
    return { code: 130429, title: 'Rate limit hit' };
  };

  // Statuses go back in webhooks of up to WA_FAKE_STATUS_BATCH. Meta may group several
  // statuses of a phone number in one POST (one change, `statuses[]` of many); grouping them
  // here keeps the request count a small share of the events (at 1,000 msg/s some 2,000
  // statuses a second, 20 POSTs of 100) as the simulator's 500-event batches do, so the figure
  // is the engine's and not one HMAC and one request per event. WA_FAKE_STATUS_BATCH=1 gives
  // Meta's worst case, one status a POST.
  let inFlight = 0;
  const take = (queue: Due[], now: number): Due[] => {
    let n = 0;
    while (n < queue.length && queue[n]!.at <= now) n++;
    return queue.splice(0, n);
  };
  const flush = () => {
    const now = Date.now();
    for (const d of take(toSend, now)) {
      outbox.push(waStatus(d.sent, 'sent', new Date(now)));
      toDeliver.push({ sent: d.sent, at: now + e.WA_FAKE_DELAY_MS });
    }
    for (const d of take(toDeliver, now)) outbox.push(waStatus(d.sent, 'delivered', new Date(now)));
    while (outbox.length && inFlight < POSTS_IN_FLIGHT && e.WA_FAKE_CALLBACK_URL) {
      const batch = outbox.slice(0, e.WA_FAKE_STATUS_BATCH);
      outbox = outbox.slice(batch.length);
      inFlight += 1;
      void fake
        .postStatuses(e.WA_FAKE_CALLBACK_URL, batch)
        .then((r) => r.status >= 200 && r.status < 300)
        .catch(() => false)
        .then((ok) => {
          inFlight -= 1;
          stats.statusWebhooks += 1;
          if (ok) stats.statusesPosted += batch.length;
          else {
            // Meta retries a refused webhook: the batch goes again from the next tick.
            stats.statusWebhooksFailed += 1;
            outbox = batch.concat(outbox);
          }
        });
    }
  };
  const timer = setInterval(flush, FLUSH_MS);

  const stop = () => {
    clearInterval(timer);
    void fake.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  console.log(`WhatsApp fake running at ${fake.url}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
