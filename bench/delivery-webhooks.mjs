// Status webhooks under load (docs/performance.md, status webhooks): batches of status events
// signed as the simulator signs them (x-herald-signature: sha256=<HMAC-SHA256 of the raw body>)
// POSTed to the app's webhook route. At a fixed offered rate (open loop: each request leaves at its
// scheduled time whether or not the last one was answered), the latency of every request; then with
// a few clients back to back, how many events a second the app absorbs at most.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { sleep } from './lib.mjs';

function percentiles(samples) {
  const s = Float64Array.from(samples).sort();
  const at = (p) => s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? NaN;
  return { p50: at(50), p95: at(95), p99: at(99), max: s[s.length - 1] ?? NaN };
}

/**
 * Each recipient's events in the order a provider sends them: sent, delivered, read (one in
 * twenty fails instead of being delivered). A recipient's later events come `lag` events after
 * its earlier one, so they land in other requests, as the simulator's delayed events do.
 */
export function eventStream(campaignId, numbers, lag) {
  const keyed = [];
  numbers.forEach((phone, i) => {
    const reference = `${campaignId}:${phone}`;
    const id = `bench-${i}`;
    const fails = i % 20 === 0;
    const steps = fails ? ['sent', 'failed'] : ['sent', 'delivered', 'read'];
    steps.forEach((status, s) => keyed.push({ key: i + s * lag, s, reference, id, status }));
  });
  keyed.sort((a, b) => a.key - b.key || a.s - b.s);
  const at = new Date().toISOString();
  return keyed.map(({ reference, id, status }) => ({
    reference,
    id,
    status,
    timestamp: at,
    ...(status === 'failed' ? { error: { code: 131049, title: 'Message not delivered' } } : {}),
  }));
}

/** Request bodies of `batch` events each, signed. */
function signedBodies(events, batch, secret) {
  const out = [];
  for (let i = 0; i < events.length; i += batch) {
    const slice = events.slice(i, i + batch);
    const body = Buffer.from(JSON.stringify({ events: slice }));
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    out.push({ body, signature, events: slice.length });
  }
  return out;
}

function post(url, agent, { body, signature }) {
  return new Promise((resolve) => {
    const t = performance.now();
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'x-herald-signature': signature,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - t }));
        res.on('error', () => resolve({ status: 0, ms: performance.now() - t }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t }));
    req.end(body);
  });
}

/**
 * `events` in requests of `batch`, `rate` events a second, open loop; answers latency
 * percentiles, non-2xx count, and events answered 2xx per second of the schedule.
 */
export async function offeredLoad(url, secret, events, { batch, rate }) {
  const bodies = signedBodies(events, batch, secret);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const interval = (batch / rate) * 1000;
  const t0 = performance.now();
  const answers = [];
  let late = 0;
  for (const [k, b] of bodies.entries()) {
    const due = t0 + k * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    else if (wait < -interval) late++;
    answers.push(post(url, agent, b).then((r) => ({ ...r, events: b.events })));
  }
  const done = await Promise.all(answers);
  agent.destroy();
  const ok = done.filter((r) => r.status >= 200 && r.status < 300);
  // The schedule offers `rate` events a second: all answered 2xx absorbs exactly that.
  const scheduleSeconds = events.length / rate;
  return {
    requests: done.length,
    events: events.length,
    failed: done.length - ok.length,
    statuses: [...new Set(done.map((r) => r.status))],
    late,
    ...percentiles(done.map((r) => r.ms)),
    absorbed: ok.reduce((s, r) => s + r.events, 0) / scheduleSeconds,
  };
}

/** `clients` loops posting the next body as soon as the last was answered; events/s absorbed. */
export async function saturate(url, secret, events, { batch, clients, seconds }) {
  const bodies = signedBodies(events, batch, secret);
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  let next = 0;
  let okEvents = 0;
  let failed = 0;
  const lat = [];
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const client = async () => {
    while (next < bodies.length && performance.now() < end) {
      const b = bodies[next++];
      const r = await post(url, agent, b);
      lat.push(r.ms);
      if (r.status >= 200 && r.status < 300) okEvents += b.events;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  return {
    requests: lat.length,
    failed,
    okEvents,
    elapsed,
    absorbed: okEvents / elapsed,
    ...percentiles(lat),
  };
}
