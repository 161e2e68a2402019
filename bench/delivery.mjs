// The delivery engine against the simulator run as its own process (docs/performance.md,
// delivery rate to delivery crash), each figure beside its reference in the same run:
// 1. sustained rate: the messages the simulator accepted a second over a steady window, against
//    its cap (the sender's rate set to the cap), with the app server's CPU per message and as a
//    share of one core at that rate (the app also absorbs the simulator's status webhooks then);
// 2. a campaign of BENCH_DELIVERY_BIG recipients at a 5,000 msg/s cap: wall time from the
//    Admin's Approved to the simulator's last acceptance, against recipients / cap;
// 3. status webhooks signed as the simulator signs them, offered at 3x the send rate: p99 latency
//    and events absorbed a second; then the most the app absorbs with clients back to back;
// 4. the same campaign size again, kill -9 of the app at ~30%, restart on the same database:
//    duplicates (the simulator's count of references sent twice) against the in-flight bound,
//    and skipped (recipients the simulator never accepted).
import os from 'node:os';
import { cpuMicros, treeCpu, treeCpuSpent } from './cpu.mjs';
import {
  campaignStates,
  createCampaign,
  fund,
  killApp,
  phones,
  setSenderRate,
  setStatus,
  simStats,
  startApp,
  startSimulator,
  startStack,
} from './delivery-setup.mjs';
import { eventStream, offeredLoad, saturate } from './delivery-webhooks.mjs';
import { postgresPid } from './http.mjs';
import { sleep } from './lib.mjs';

const num = (name, fallback) => Number(process.env[name] ?? fallback);

export const DELIVERY = {
  /** The simulator's cap and the sender's rate for the sustained figure (msg/s). */
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
const WARM = 5;
const HEADROOM = 10;
const count = (n) => Math.round(n).toLocaleString('en-US');
/** Other work on a shared machine skews every figure: each line says how busy it was. */
const busy = () => `[load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores]`;

/** CPU of the app, PostgreSQL (postmaster and backends) and the simulator, and its counters. */
async function snapshot(stack, pgPid) {
  return {
    t: performance.now(),
    stats: await simStats(stack),
    app: cpuMicros(stack.app.server.child.pid),
    pg: pgPid ? treeCpu(pgPid) : undefined,
    sim: cpuMicros(stack.sim.child.pid),
  };
}

function between(a, b) {
  const seconds = (b.t - a.t) / 1000;
  const d = (k) => b.stats[k] - a.stats[k];
  return {
    seconds,
    accepted: d('accepted'),
    throttled: d('throttled'),
    duplicates: d('duplicates'),
    rejected: d('rejected'),
    appCpu: b.app - a.app,
    pgCpu: a.pg && b.pg ? treeCpuSpent(a.pg, b.pg) : NaN,
    simCpu: b.sim - a.sim,
  };
}

/** Polls the simulator until `check(stats)` holds; fails after `ms`. */
async function waitStats(stack, check, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const s = await simStats(stack);
    if (check(s)) return s;
    if (Date.now() > end) throw new Error(`simulator stats did not change in ${ms / 1000} s`);
    await sleep(100);
  }
}

/** Waits until the simulator accepted nothing new for 2 s (in-flight sends of a stopped campaign). */
async function quiet(stack) {
  let last = (await simStats(stack)).accepted;
  for (let i = 0; i < 60; i++) {
    await sleep(2000);
    const now = (await simStats(stack)).accepted;
    if (now === last) return;
    last = now;
  }
}

/** Figure 1: steady window of BENCH_DELIVERY_SECONDS after WARM seconds of sending. */
async function sustained(stack, pgPid, log) {
  const cap = DELIVERY.rate;
  await startSimulator(stack, cap);
  const how = await setSenderRate(stack, cap);
  const n = cap * (WARM + DELIVERY.seconds + HEADROOM);
  const c = await createCampaign(stack, phones(n, 911_000_000_000), 'Bench: sustained rate');
  log(
    `sustained: simulator (${stack.sim.entry}) cap ${count(cap)} msg/s, sender rate set by ${how}; campaign of ${count(c.count)} created in ${c.seconds.toFixed(1)} s`,
  );
  const base = await simStats(stack);
  await setStatus(stack, c.id, 'Approved');
  await waitStats(stack, (s) => s.accepted > base.accepted, 60_000);
  await sleep(WARM * 1000);
  const samples = [await snapshot(stack, pgPid)];
  const end = samples[0].t + DELIVERY.seconds * 1000;
  while (performance.now() < end) {
    await sleep(Math.min(1000, end - performance.now()));
    samples.push(await snapshot(stack, pgPid));
  }
  const w = between(samples[0], samples.at(-1));
  const perSecond = samples.slice(1).map((s, i) => between(samples[i], s));
  const rates = perSecond.map((p) => p.accepted / p.seconds);
  await setStatus(stack, c.id, 'Cancelled');
  await quiet(stack);
  const rate = w.accepted / w.seconds;
  const r = {
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
    throttledShare: w.throttled / (w.accepted + w.throttled + w.rejected + w.duplicates),
    after: await campaignStates(stack, c.id),
  };
  log(
    `sustained: ${count(w.accepted)} accepted in ${w.seconds.toFixed(1)} s = ${rate.toFixed(1)} msg/s (1 s samples ${r.slowestSecond.toFixed(0)}-${r.fastestSecond.toFixed(0)}); 429s ${count(w.throttled)} (${(r.throttledShare * 100).toFixed(2)}% of sends); app CPU ${r.appCpuPerMessage.toFixed(0)} µs/msg = ${r.appCorePercent.toFixed(1)}% of a core, PostgreSQL ${r.pgCpuPerMessage.toFixed(0)} µs/msg, simulator ${r.simCorePercent.toFixed(1)}% of a core; cancelled after, states ${JSON.stringify(r.after)} ${busy()}`,
  );
  return r;
}

/** Figure 3: a campaign left Submitted, its recipients' events posted as the simulator would. */
async function webhooks(stack, log) {
  const url = `${stack.app.base}/api/delivery/webhooks/simulator`;
  const rate = 3 * DELIVERY.rate;
  const batch = DELIVERY.webhookBatch;
  const recipients = Math.ceil((rate * DELIVERY.webhookSeconds) / 3);
  const offeredNumbers = phones(recipients, 912_000_000_000);
  const c = await createCampaign(stack, offeredNumbers, 'Bench: webhooks');
  const events = eventStream(c.id, offeredNumbers, 3 * batch);
  const offered = await offeredLoad(url, stack.secret, events, { batch, rate });
  const after = await campaignStates(stack, c.id);
  log(
    `webhooks: ${count(offered.events)} events of ${count(recipients)} recipients in ${count(offered.requests)} requests of ${batch}, offered ${count(rate)} events/s: p50 ${offered.p50.toFixed(1)} ms, p99 ${offered.p99.toFixed(1)} ms, max ${offered.max.toFixed(1)} ms; ${offered.failed} not 2xx (statuses ${offered.statuses.join(', ')}); ${offered.late} requests left late; recipient states after: ${JSON.stringify(after.states)} ${busy()}`,
  );
  // The ceiling: 4 clients back to back for 5 s over fresh recipients.
  const satNumbers = phones(Math.max(recipients, 100_000), 913_000_000_000);
  const s = await createCampaign(stack, satNumbers, 'Bench: webhooks ceiling');
  const ceiling = await saturate(url, stack.secret, eventStream(s.id, satNumbers, 3 * batch), {
    batch,
    clients: 4,
    seconds: 5,
  });
  log(
    `webhooks ceiling: 4 clients back to back, ${count(ceiling.okEvents)} events in ${ceiling.elapsed.toFixed(1)} s = ${count(ceiling.absorbed)} events/s, p99 ${ceiling.p99.toFixed(1)} ms, ${ceiling.failed} not 2xx ${busy()}`,
  );
  return { rate, batch, recipients, offered, after, ceiling };
}

/**
 * Figures 2 and 4: a campaign of BENCH_DELIVERY_BIG at the big cap, from Approved to the
 * simulator's acceptance of every recipient; with `killAt`, kill -9 of the app once that share
 * was accepted, then a restart on the same database and port.
 */
async function bigCampaign(stack, pgPid, from, killAt, log) {
  const n = DELIVERY.big;
  const c = await createCampaign(stack, phones(n, from), `Bench: ${count(n)} recipients`);
  const base = await snapshot(stack, pgPid);
  const t0 = performance.now();
  await setStatus(stack, c.id, 'Approved');
  let last = base.stats;
  let lastChange = performance.now();
  let kill;
  let stalled = false;
  for (;;) {
    await sleep(100);
    const s = await simStats(stack);
    const now = performance.now();
    if (s.accepted !== last.accepted) {
      lastChange = now;
      if (kill && kill.resumedAfterSeconds === undefined) {
        kill.resumedAfterSeconds = (now - kill.restartedAt) / 1000;
      }
    }
    last = s;
    const done = s.accepted - base.stats.accepted;
    if (done >= c.count) break;
    if (killAt && !kill && done >= killAt * c.count) {
      kill = { accepted: done, atSeconds: (now - t0) / 1000 };
      await killApp(stack);
      // What the dead instance left claimed: taken again as soon as the app is back (its
      // presence lock went with it, so no lease is waited out), unless a status event for it
      // (the provider had accepted it) arrives first.
      const left = await stack.db.query(
        `SELECT count(*)::int AS n FROM campaign_recipients
          WHERE campaign_id = $1 AND state = 'sending'`,
        [c.id],
      );
      kill.leftSending = left.rows[0].n;
      kill.restartedAt = performance.now();
      await startApp(stack);
      kill.restartSeconds = (performance.now() - kill.restartedAt) / 1000;
      last = await simStats(stack);
      lastChange = performance.now();
    }
    if (now - lastChange > DELIVERY.stallSeconds * 1000) {
      stalled = true;
      break;
    }
  }
  const end = await snapshot(stack, pgPid);
  const w = between(base, end);
  // The moment the last recipient was accepted; a stalled run has none.
  const wallSeconds = stalled || w.accepted < c.count ? NaN : (lastChange - t0) / 1000;
  const r = {
    recipients: c.count,
    createSeconds: c.seconds,
    wallSeconds,
    stalled,
    accepted: w.accepted,
    duplicates: w.duplicates,
    throttled: w.throttled,
    skipped: c.count - w.accepted,
    kill,
    appCpuPerMessage: kill ? NaN : w.appCpu / w.accepted,
    pgCpuPerMessage: kill ? NaN : w.pgCpu / w.accepted,
  };
  r.finish = await waitFinished(stack, c.id, t0);
  log(
    `${killAt ? 'kill -9' : 'big'}: ${count(r.accepted)} of ${count(c.count)} accepted (campaign created in ${c.seconds.toFixed(1)} s)${stalled ? `, STALLED (nothing new for ${DELIVERY.stallSeconds} s)` : ''}; last acceptance ${((lastChange - t0) / 1000).toFixed(1)} s after Approved (${((lastChange - t0) / 1000 / (c.count / DELIVERY.bigRate)).toFixed(2)}x of ${count(c.count)} / cap = ${(c.count / DELIVERY.bigRate).toFixed(1)} s); duplicates ${r.duplicates} (in-flight bound: DELIVERY_CONCURRENCY ${DELIVERY.concurrency}), 429s ${count(r.throttled)}${kill ? `; killed at ${count(kill.accepted)} accepted (${kill.atSeconds.toFixed(1)} s) with ${kill.leftSending} left sending, app back in ${kill.restartSeconds.toFixed(1)} s, sending again ${kill.resumedAfterSeconds?.toFixed(1) ?? 'never'} s after the kill` : `; app CPU ${r.appCpuPerMessage.toFixed(0)} µs/msg, PostgreSQL ${r.pgCpuPerMessage.toFixed(0)} µs/msg`}; then ${r.finish.status} (${r.finish.seconds.toFixed(1)} s after Approved), states ${JSON.stringify(r.finish.states)}, claimed more than once ${r.finish.reclaimed} ${busy()}`,
  );
  return r;
}

/** Waits (up to 60 s) for the campaign to leave Processing; its status and recipient states. */
async function waitFinished(stack, id, t0) {
  const end = Date.now() + 60_000;
  let s = await campaignStates(stack, id);
  while (['Approved', 'Processing'].includes(s.status) && Date.now() < end) {
    await sleep(500);
    s = await campaignStates(stack, id);
  }
  return { ...s, seconds: (performance.now() - t0) / 1000 };
}

export async function measureDelivery(log = console.log) {
  const stack = await startStack({ concurrency: DELIVERY.concurrency });
  const pgPid = postgresPid(stack.dir);
  const total =
    DELIVERY.rate * (WARM + DELIVERY.seconds + HEADROOM) +
    Math.ceil(DELIVERY.rate * DELIVERY.webhookSeconds) +
    Math.max(DELIVERY.rate * DELIVERY.webhookSeconds, 100_000) +
    2 * DELIVERY.big;
  await fund(stack, total);
  log(
    `app ${stack.app.base} (DELIVERY_CONCURRENCY ${DELIVERY.concurrency}), ${count(total)} credits minted for the owner ${busy()}`,
  );
  const sustainedResult = await sustained(stack, pgPid, log);
  const webhookResult = await webhooks(stack, log);
  await startSimulator(stack, DELIVERY.bigRate);
  const how = await setSenderRate(stack, DELIVERY.bigRate);
  log(`big: simulator cap ${count(DELIVERY.bigRate)} msg/s, sender rate set by ${how}`);
  const big = await bigCampaign(stack, pgPid, 914_000_000_000, 0, log);
  await quiet(stack);
  const killed = await bigCampaign(stack, pgPid, 915_000_000_000, DELIVERY.killAt, log);
  return { settings: DELIVERY, sustained: sustainedResult, webhooks: webhookResult, big, killed };
}
