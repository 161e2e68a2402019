// The delivery bench's sustained rate with a customer's webhook endpoint subscribed to
// `recipients.updated` (docs/api.md, Webhooks): the campaign owner adds an endpoint through the
// API, on a receiver this process runs on loopback (the app runs with WEBHOOK_ALLOW_PRIVATE), and
// the same sustained window as the simulator's runs again. The receiver checks each call's
// signature with the `standardwebhooks` verifier (a call that fails it counts as refused), and
// for every recipient a call reports takes its latency: the receipt time minus the status's
// `at`, the time the provider gave the status. Changes older than the endpoint (the same
// owner's earlier bench campaigns, which a new endpoint is told of too) are counted apart. So the figure covers the provider's callback,
// the write, the scan and the delivery. Figures: the rate against the cap (the simulator's
// window of the same run is the reference), and p50/p99/max of that latency.
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { sustained } from './delivery-measure.mjs';
import { api } from './delivery-setup.mjs';
import { sleep } from './lib.mjs';

/** After the window, how long to wait with no new call before the report is taken as complete. */
const SETTLE_MS = 20_000;

/** A loopback receiver of signed calls; `stats()` gives what it saw. */
async function startReceiver() {
  const latencies = [];
  let earlier = 0;
  let since = Infinity;
  let calls = 0;
  let refused = 0;
  let lastCall = performance.now();
  let verifier;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      lastCall = performance.now();
      const body = Buffer.concat(chunks).toString('utf8');
      let event;
      try {
        event = verifier.verify(body, req.headers);
      } catch {
        refused++;
        res.writeHead(400).end();
        return;
      }
      calls++;
      if (event.type === 'recipients.updated') {
        for (const r of event.data.recipients) {
          const at = Date.parse(r.at);
          if (at >= since) latencies.push(now - at);
          else earlier++;
        }
      }
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    /** The endpoint exists from now on: changes before it are counted apart. */
    subscribed(secret) {
      verifier = new Webhook(secret);
      since = Date.now();
    },
    stats: () => ({ calls, refused, latencies, earlier, lastCall }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * The sustained window against `provider` (the simulator) with one endpoint of the campaign
 * owner's subscribed to `recipients.updated`; the endpoint is deleted afterwards.
 */
export async function sustainedWithEndpoint(stack, pgPid, provider, from, log) {
  const receiver = await startReceiver();
  const created = await api(stack, 'user', 'POST', '/api/webhooks', {
    url: receiver.url,
    events: ['recipients.updated'],
    description: 'Bench receiver',
  });
  receiver.subscribed(created.secret);
  try {
    const r = await sustained(
      stack,
      pgPid,
      { ...provider, label: `${provider.label}, endpoint on recipients.updated` },
      from,
      log,
    );
    const windowEnded = performance.now();
    const last = () => Math.max(windowEnded, receiver.stats().lastCall);
    while (performance.now() - last() < SETTLE_MS) await sleep(1000);
    const { calls, refused, latencies, earlier } = receiver.stats();
    const sorted = [...latencies].sort((a, b) => a - b);
    const endpoint = {
      calls,
      refused,
      recipients: sorted.length,
      earlier,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? NaN,
    };
    log(
      `endpoint: ${calls} calls (${refused} failed the signature check) reported ${sorted.length} recipient status changes made since it was added (and ${earlier} of the owner's earlier campaigns, changed before it existed: a new endpoint hears a day's changes); latency from the status to the endpoint p50 ${(endpoint.p50 / 1000).toFixed(1)} s, p99 ${(endpoint.p99 / 1000).toFixed(1)} s, max ${(endpoint.max / 1000).toFixed(1)} s`,
    );
    return { ...r, endpoint };
  } finally {
    await api(stack, 'user', 'DELETE', `/api/webhooks/${created.endpoint.id}`);
    await receiver.close();
  }
}
