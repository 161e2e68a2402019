// What the delivery bench's figures share (bench/delivery.mjs, bench/delivery-whatsapp.mjs):
// its settings, CPU and counter snapshots of the app, PostgreSQL and the provider process, and
// the sustained-rate figure, run against any provider process that counts what it accepted
// (the simulator, the WhatsApp fake). A provider here is { label, pid(), stats(), prepare(cap) }:
// stats() answers { accepted, throttled, duplicates, rejected, events } (events: status events
// the app acknowledged), prepare(cap) starts it with that cap, sets the sender's rate to it and
// answers how the rate was set.
import os from 'node:os';
import { cpuMicros, treeCpu, treeCpuSpent } from './cpu.mjs';
import { campaignStates, createCampaign, phones, setStatus } from './delivery-setup.mjs';
import { sleep } from './lib.mjs';

const num = (name, fallback) => Number(process.env[name] ?? fallback);

export const DELIVERY = {
  /** The provider's cap and the sender's rate for the sustained figure (msg/s). */
  rate: num('BENCH_DELIVERY_RATE', 1000),
  seconds: num('BENCH_DELIVERY_SECONDS', 60),
  big: num('BENCH_DELIVERY_BIG', 1_000_000),
  bigRate: num('BENCH_DELIVERY_BIG_RATE', 5000),
  /**
   * The app's DELIVERY_CONCURRENCY: the in-flight bound on duplicates after a crash (printed
   * beside them). 256, not the app's default 64: at 5,000 msg/s a place is held for a send and
   * its group's write, and 64 places over a ~50 ms cycle on a busy machine cap the rate near
   * 1,300 msg/s.
   */
  concurrency: num('DELIVERY_CONCURRENCY', 256),
  webhookSeconds: num('BENCH_DELIVERY_WEBHOOK_SECONDS', 20),
  webhookBatch: num('BENCH_DELIVERY_WEBHOOK_BATCH', 100),
  killAt: num('BENCH_DELIVERY_KILL_AT', 0.3),
  /** No new acceptance for this long ends a campaign's wait (a stalled engine is reported). */
  stallSeconds: num('BENCH_DELIVERY_STALL_SECONDS', 180),
};

/** Warm-up before the steady window, and headroom after it, in seconds of sending. */
export const WARM = 5;
export const HEADROOM = 10;
export const count = (n) => Math.round(n).toLocaleString('en-US');
/** Other work on a shared machine skews every figure: each line says how busy it was. */
export const busy = () =>
  `[load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores]`;

/** CPU of the app, PostgreSQL (postmaster and backends) and the provider, and its counters. */
export async function snapshot(stack, pgPid, provider) {
  return {
    t: performance.now(),
    stats: await provider.stats(),
    app: cpuMicros(stack.app.server.child.pid),
    pg: pgPid ? treeCpu(pgPid) : undefined,
    sim: cpuMicros(provider.pid()),
  };
}

export function between(a, b) {
  const seconds = (b.t - a.t) / 1000;
  const d = (k) => b.stats[k] - a.stats[k];
  return {
    seconds,
    accepted: d('accepted'),
    throttled: d('throttled'),
    duplicates: d('duplicates'),
    rejected: d('rejected'),
    events: d('events'),
    appCpu: b.app - a.app,
    pgCpu: a.pg && b.pg ? treeCpuSpent(a.pg, b.pg) : NaN,
    simCpu: b.sim - a.sim,
  };
}

/** Polls the provider until `check(stats)` holds; fails after `ms`. */
async function waitStats(provider, check, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const s = await provider.stats();
    if (check(s)) return s;
    if (Date.now() > end)
      throw new Error(`${provider.label} stats did not change in ${ms / 1000} s`);
    await sleep(100);
  }
}

/** Waits until the provider accepted nothing new for 2 s (in-flight sends of a stopped campaign). */
export async function quiet(provider) {
  let last = (await provider.stats()).accepted;
  for (let i = 0; i < 60; i++) {
    await sleep(2000);
    const now = (await provider.stats()).accepted;
    if (now === last) return;
    last = now;
  }
}

/**
 * The sustained figure: a campaign approved with the provider capped at DELIVERY.rate, a steady
 * window of BENCH_DELIVERY_SECONDS after WARM seconds of sending, then cancelled. `from` is the
 * first of its numbers (each run its own).
 */
export async function sustained(stack, pgPid, provider, from, log) {
  const cap = DELIVERY.rate;
  const how = await provider.prepare(cap);
  const n = cap * (WARM + DELIVERY.seconds + HEADROOM);
  const c = await createCampaign(stack, phones(n, from), `Bench: sustained rate`);
  const tag = `sustained (${provider.label})`;
  log(
    `${tag}: cap ${count(cap)} msg/s, sender rate set by ${how}; campaign of ${count(c.count)} created in ${c.seconds.toFixed(1)} s`,
  );
  const base = await provider.stats();
  await setStatus(stack, c.id, 'Approved');
  await waitStats(provider, (s) => s.accepted > base.accepted, 60_000);
  await sleep(WARM * 1000);
  const samples = [await snapshot(stack, pgPid, provider)];
  const end = samples[0].t + DELIVERY.seconds * 1000;
  while (performance.now() < end) {
    await sleep(Math.min(1000, end - performance.now()));
    samples.push(await snapshot(stack, pgPid, provider));
  }
  const w = between(samples[0], samples.at(-1));
  const perSecond = samples.slice(1).map((s, i) => between(samples[i], s));
  const rates = perSecond.map((p) => p.accepted / p.seconds);
  await setStatus(stack, c.id, 'Cancelled');
  await quiet(provider);
  const rate = w.accepted / w.seconds;
  const r = {
    provider: provider.label,
    cap,
    how,
    recipients: c.count,
    window: w,
    rate,
    slowestSecond: Math.min(...rates),
    fastestSecond: Math.max(...rates),
    appCpuPerMessage: w.appCpu / w.accepted,
    appCorePercent: (w.appCpu / 1e6 / w.seconds) * 100,
    pgCpuPerMessage: w.pgCpu / w.accepted,
    simCorePercent: (w.simCpu / 1e6 / w.seconds) * 100,
    eventsPerSecond: w.events / w.seconds,
    throttledShare: w.throttled / (w.accepted + w.throttled + w.rejected + w.duplicates),
    after: await campaignStates(stack, c.id),
  };
  log(
    `${tag}: ${count(w.accepted)} accepted in ${w.seconds.toFixed(1)} s = ${rate.toFixed(1)} msg/s (1 s samples ${r.slowestSecond.toFixed(0)}-${r.fastestSecond.toFixed(0)}); 429s ${count(w.throttled)} (${(r.throttledShare * 100).toFixed(2)}% of sends); status events absorbed ${count(r.eventsPerSecond)}/s; app CPU ${r.appCpuPerMessage.toFixed(0)} µs/msg = ${r.appCorePercent.toFixed(1)}% of a core, PostgreSQL ${r.pgCpuPerMessage.toFixed(0)} µs/msg, provider ${r.simCorePercent.toFixed(1)}% of a core; cancelled after, states ${JSON.stringify(r.after)} ${busy()}`,
  );
  return r;
}
