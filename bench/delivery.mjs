// The delivery engine against the simulator run as its own process (docs/performance.md,
// delivery rate to delivery crash), each figure beside its reference in the same run:
// 1. sustained rate: the messages the simulator accepted a second over a steady window, against
//    its cap (the sender's rate set to the cap), with the app server's CPU per message and as a
//    share of one core at that rate (the app also absorbs the simulator's status webhooks then);
//    then the same against the WhatsApp Cloud API fake in its own process, connected through
//    the Admin's API (bench/delivery-whatsapp.mjs), the simulator's figure its reference; then
//    the simulator's again with a customer's endpoint on `recipients.updated`
//    (bench/delivery-endpoint.mjs): the rate, and how soon each status change reached it;
// 2. a campaign of BENCH_DELIVERY_BIG recipients at a 5,000 msg/s cap: wall time from the
//    Admin's Approved to the simulator's last acceptance, against recipients / cap;
// 3. status webhooks signed as the simulator signs them, offered at 3x the send rate: p99 latency
//    and events absorbed a second; then the most the app absorbs with clients back to back;
// 4. the same campaign size again, kill -9 of the app at ~30%, restart on the same database:
//    duplicates (the simulator's count of references sent twice) against the in-flight bound,
//    and skipped (recipients the simulator never accepted).
import {
  DELIVERY,
  HEADROOM,
  WARM,
  between,
  busy,
  count,
  quiet,
  snapshot,
  sustained,
} from './delivery-measure.mjs';
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
import { sustainedWhatsApp } from './delivery-whatsapp.mjs';
import { sustainedWithEndpoint } from './delivery-endpoint.mjs';
import { postgresPid } from './http.mjs';
import { sleep } from './lib.mjs';

export { DELIVERY };

/** The simulator as the shared figures see a provider (delivery-measure.mjs). */
function simulator(stack) {
  return {
    label: 'simulator',
    pid: () => stack.sim.child.pid,
    async stats() {
      const s = await simStats(stack);
      return { ...s, events: s.eventsDelivered };
    },
    async prepare(cap) {
      await startSimulator(stack, cap);
      return `${await setSenderRate(stack, cap)}, ${stack.sim.entry}`;
    },
  };
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
  const sim = simulator(stack);
  const c = await createCampaign(stack, phones(n, from), `Bench: ${count(n)} recipients`);
  const base = await snapshot(stack, pgPid, sim);
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
  const end = await snapshot(stack, pgPid, sim);
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

/**
 * Every delivery figure; with `sustainedOnly` (--only=delivery-whatsapp) only the sustained
 * rate against the simulator and then against the WhatsApp fake, the first the second's
 * reference in the same run.
 */
export async function measureDelivery(log = console.log, { sustainedOnly = false } = {}) {
  const stack = await startStack({ concurrency: DELIVERY.concurrency });
  const pgPid = postgresPid(stack.dir);
  const steady = DELIVERY.rate * (WARM + DELIVERY.seconds + HEADROOM);
  const total = sustainedOnly
    ? 3 * steady
    : 3 * steady +
      Math.ceil(DELIVERY.rate * DELIVERY.webhookSeconds) +
      Math.max(DELIVERY.rate * DELIVERY.webhookSeconds, 100_000) +
      2 * DELIVERY.big;
  await fund(stack, total);
  log(
    `app ${stack.app.base} (DELIVERY_CONCURRENCY ${DELIVERY.concurrency}), ${count(total)} credits minted for the owner ${busy()}`,
  );
  const sustainedResult = await sustained(stack, pgPid, simulator(stack), 911_000_000_000, log);
  const whatsapp = await sustainedWhatsApp(stack, pgPid, 916_000_000_000, log);
  const endpoint = await sustainedWithEndpoint(
    stack,
    pgPid,
    simulator(stack),
    917_000_000_000,
    log,
  );
  if (sustainedOnly) return { settings: DELIVERY, sustained: sustainedResult, whatsapp, endpoint };
  const webhookResult = await webhooks(stack, log);
  await startSimulator(stack, DELIVERY.bigRate);
  const how = await setSenderRate(stack, DELIVERY.bigRate);
  log(`big: simulator cap ${count(DELIVERY.bigRate)} msg/s, sender rate set by ${how}`);
  const big = await bigCampaign(stack, pgPid, 914_000_000_000, 0, log);
  await quiet(simulator(stack));
  const killed = await bigCampaign(stack, pgPid, 915_000_000_000, DELIVERY.killAt, log);
  return {
    settings: DELIVERY,
    sustained: sustainedResult,
    whatsapp,
    endpoint,
    webhooks: webhookResult,
    big,
    killed,
  };
}
