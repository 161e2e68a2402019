// `npm run bench`: the performance targets of docs/performance.md. Each figure is printed beside a
// reference measured in the same run on the same machine, with the ratio and the target; the
// summary's first column is the target's name there. Nothing is asserted: it exits 0 unless
// something crashes.
// - HTTP (request CPU): the server process's CPU per request (user + system from /proc, so Linux
//   only) over a fixed number of requests, against a Fastify hello world's under the same load;
//   req/s is only shown, since the load generator shares the cores.
// - Login storm (in the http section): p99 of GET /api/session at a fixed rate during a
//   storm of wrong logins from many loopback addresses against the same endpoint idle.
// - Credit ledger history: p95 of the pages against the p95 of a one-row authenticated read (the
//   viewer's own profile) on the same connection in the same run, asked in turn with the pages.
// - Campaign intake: against a raw COPY of the same rows into a table of the same shape and
//   indexes without a foreign key.
// - Alerts bell: unread count and bell list p95 at 1M notifications against a one-row
//   read, and 1,000 open SSE streams with the server's RSS growth per stream.
// - Delivery (rate, CPU, at scale, status webhooks, crash): against the simulator as its own
//   process, the rate it accepted vs its cap with the app's CPU (then the same against the
//   WhatsApp Cloud API fake as its own process), a big campaign's wall time vs
//   recipients / cap, signed status webhooks at 3x the send rate (p99), kill -9 mid-campaign
//   (duplicates, skipped).
// - Page speed (lighthouse): LCP, TBT and CLS of /login, the Admin's dashboard and /campaigns on
//   Lighthouse's mobile preset with a cold cache, the median of BENCH_LIGHTHOUSE_RUNS (3), beside
//   their targets (simulated throttling: a model of a slow phone, not this machine's speed).
// `--only=bundles,http,ledger,recipients,campaigns,alerts,analytics,backup,delivery,lighthouse`
// runs some sections (http and lighthouse need bundles, which they then run too);
// `--only=delivery-whatsapp` runs only delivery's sustained rate, against the simulator, the
// WhatsApp fake, and the simulator with a customer's webhook endpoint (`delivery` includes them).
// Settings: BENCH_CONNECTIONS (50), BENCH_HTTP_REQUESTS (40,000 a CPU-measured run),
// BENCH_DURATION (10 s, the run at 50% of peak), BENCH_WARMUP (2 s), CHROMIUM_PATH,
// BENCH_PROFILE_USERS (64), BENCH_HTTP_ROUNDS (2), BENCH_LOGIN_STORM_RATE (100 logins/s),
// BENCH_LOGIN_STORM_IN_FLIGHT (64), BENCH_LOGIN_STORM_ADDRESSES (64),
// BENCH_LOGIN_STORM_PROBE_RATE (200 req/s);
// ledger: BENCH_LEDGER_ROWS (3,000,000), BENCH_LEDGER_CLIENTS (8), BENCH_LEDGER_SECONDS (10),
// BENCH_LEDGER_WARMUP (1 s), BENCH_HISTORY_REQUESTS (200), BENCH_HISTORY_MAX_SECONDS (15 a page),
// BENCH_STORM_SECONDS (60), BENCH_STORM_CLIENTS (16), BENCH_STORM_ACCOUNTS (8);
// campaigns: BENCH_INGEST_RECIPIENTS (1,000,000), BENCH_INGEST_RUNS (3),
// BENCH_INGEST_PROBE_CLIENTS (4), BENCH_INGEST_IDLE_SECONDS (3);
// alerts: BENCH_ALERTS_USERS (10,000), BENCH_ALERTS_ROWS (1,000,000), BENCH_ALERTS_UNREAD_EVERY
// (10), BENCH_ALERTS_REQUESTS (300), BENCH_ALERTS_STREAMS (1,000);
// analytics (the ledger's load, BENCH_LEDGER_ROWS): BENCH_ANALYTICS_REQUESTS (100),
// BENCH_ANALYTICS_MAX_SECONDS (60 a case);
// delivery (against the simulator as its own process): BENCH_DELIVERY_RATE (1,000
// msg/s), BENCH_DELIVERY_SECONDS (60), BENCH_DELIVERY_BIG (1,000,000 recipients),
// BENCH_DELIVERY_BIG_RATE (5,000 msg/s), DELIVERY_CONCURRENCY (64), BENCH_DELIVERY_WEBHOOK_SECONDS
// (20), BENCH_DELIVERY_WEBHOOK_BATCH (100 events), BENCH_DELIVERY_KILL_AT (0.3),
// BENCH_DELIVERY_STALL_SECONDS (180).
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureBundles } from '../bench/bundle.mjs';
import { observeRoutes } from '../bench/browser.mjs';
import { cpuMicros } from '../bench/cpu.mjs';
import {
  LOAD,
  createUsers,
  load,
  postgresPid,
  probe,
  startHello,
  startHerald,
} from '../bench/http.mjs';
import { STORM, measureLoginStorm } from '../bench/login-storm.mjs';
import { LEDGER, httpDebits, measureHistory, startLedger, storm } from '../bench/ledger.mjs';
import { measureRecipients } from '../bench/recipients-parse.mjs';
import { INGEST, measureIngest } from '../bench/campaign-ingest.mjs';
import { ALERTS, measureAlerts } from '../bench/alerts.mjs';
import { ANALYTICS, measureAnalytics } from '../bench/analytics.mjs';
import { BACKUP, measureBackup } from '../bench/backup.mjs';
import { DELIVERY, measureDelivery } from '../bench/delivery.mjs';
import { CLS_MAX, TBT_MS, measureLighthouse } from '../bench/lighthouse.mjs';
import { kB, ms, outRoot, ratio, root, rps, runCleanups, sleep, table } from '../bench/lib.mjs';

const started = Date.now();
mkdirSync(outRoot, { recursive: true });

const SECTIONS = [
  'bundles',
  'http',
  'ledger',
  'recipients',
  'campaigns',
  'alerts',
  'analytics',
  'backup',
  'delivery',
  'delivery-whatsapp',
  'lighthouse',
];
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? onlyArg.slice('--only='.length).split(',').filter(Boolean) : SECTIONS;
for (const name of only) {
  if (!SECTIONS.includes(name)) {
    console.error(`unknown section "${name}" in --only (known: ${SECTIONS.join(', ')})`);
    process.exit(2);
  }
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping the servers and removing the temp data`);
    void runCleanups().finally(() => process.exit(130));
  });
}

const rows = [['Name', 'Measure', 'Ours', 'Reference (same run)', 'Ratio', 'Target', '']];
const results = { machine: machine(), load: LOAD };

function machine() {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`;
}

/** The 1-minute load average: other work on a shared machine skews the HTTP figures. */
function busy() {
  return `load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;
}

/** A row with a verdict: `higher` when bigger is better. */
function row(id, what, ours, ref, r, target, limit, higher) {
  const verdict =
    !Number.isFinite(r) || !Number.isFinite(limit)
      ? ''
      : (higher ? r >= limit : r <= limit)
        ? 'meets'
        : 'MISSES';
  rows.push([id, what, ours, ref, ratio(r), target, verdict]);
}

function section(title) {
  console.log(`\n== ${title}`);
}

async function bundles() {
  section('Bundles: building the React hello world and the web app with Vite (manifest)');
  const b = await measureBundles();
  const { login, dashboard } = b.routes;
  const list = (r) => r.js.map((f) => `${f.file} ${kB(f.gz)}`).join(', ');
  console.log(`React hello (reference): ${kB(b.hello.jsGz)} gz JS [${list(b.hello)}]`);
  console.log(`/login initial JS:        ${kB(login.jsGz)} gz [${list(login)}]`);
  console.log(`dashboard route JS:       ${kB(dashboard.jsGz)} gz [${list(dashboard)}]`);
  console.log(
    `/login CSS:               ${kB(login.cssGz)} gz; bootstrap.min.css ${kB(b.bootstrapCss)} gz`,
  );
  row(
    'bundle size',
    '/login initial JS, gz',
    kB(login.jsGz),
    `React hello ${kB(b.hello.jsGz)}`,
    login.jsGz / b.hello.jsGz,
    '<= 1.30x',
    1.3,
    false,
  );
  row(
    'bundle size',
    'dashboard route JS, gz (info)',
    kB(dashboard.jsGz),
    `React hello ${kB(b.hello.jsGz)}`,
    dashboard.jsGz / b.hello.jsGz,
    'info',
    NaN,
    false,
  );
  row(
    'bundle size',
    'dashboard route JS vs 300 kB cap',
    kB(dashboard.jsGz),
    'budget 300.0 kB',
    dashboard.jsGz / 300_000,
    '<= 1.00x',
    1,
    false,
  );
  row(
    'login CSS',
    '/login CSS, gz (info)',
    kB(login.cssGz),
    `bootstrap.min.css ${kB(b.bootstrapCss)}`,
    login.cssGz / b.bootstrapCss,
    '<= 0.50x',
    0.5,
    false,
  );
  results.bundles = b;
  return b;
}

let serverBuilt = false;
function buildServer() {
  if (serverBuilt) return;
  section('Building the server (apps/server/dist/main.js)');
  execSync('npm run build -w @herald/server', { cwd: root, stdio: 'inherit' });
  serverBuilt = true;
}

async function browserCheck(base, login, b) {
  section('Chromium cross-check: JS the browser fetches from the server (bench web build)');
  let seen;
  try {
    seen = await observeRoutes(base, login);
  } catch (err) {
    console.log(`skipped: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    return;
  }
  if (seen.skipped) {
    console.log(`skipped: ${seen.skipped}`);
    return;
  }
  for (const name of ['login', 'dashboard']) {
    const got = seen[name];
    const want = b.routes[name];
    const gotFiles = new Set(got.js.map((f) => f.file));
    const wantFiles = new Set(want.js.map((f) => f.file));
    const extra = [...gotFiles].filter((f) => !wantFiles.has(f));
    const missing = [...wantFiles].filter((f) => !gotFiles.has(f));
    const same =
      !extra.length && !missing.length
        ? 'same files as the manifest'
        : `differs from the manifest: extra [${extra.join(', ')}], not fetched [${missing.join(', ')}]`;
    console.log(
      `${name} (ended on ${got.path}): ${got.js.length} files, ${kB(got.jsGz)} gz; ${same}`,
    );
  }
  results.browser = seen;
}

const micros = (n) => (Number.isFinite(n) ? `${n.toFixed(n < 100 ? 1 : 0)} µs` : 'n/a');

function show(name, r) {
  const bad = r.non2xx + r.errors + r.timeouts;
  const note = bad ? `  (!) ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts` : '';
  const cpu = r.cpu
    ? `  server CPU ${micros(r.cpu.server / r.answered)}/req${r.cpu.postgres === undefined ? '' : `, PostgreSQL ${micros(r.cpu.postgres / r.answered)}/req`}`
    : '';
  console.log(
    `${name.padEnd(48)} ${rps(r.rps).padStart(13)}  p50 ${ms(r.p50)}  p99 ${ms(r.p99)}${cpu}${note}`,
  );
}

/** Runs of each HTTP endpoint, each after a run of the reference. */
const HTTP_ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 2);

/** CPU per answered request (µs) over several fixed-count runs, with mean req/s and worst p99. */
function perRequest(runs) {
  const answered = runs.reduce((a, r) => a + r.answered, 0);
  const cpu = (name) =>
    runs.every((r) => r.cpu[name] !== undefined)
      ? runs.reduce((a, r) => a + r.cpu[name], 0) / answered
      : NaN;
  return {
    cpu: cpu('server'),
    postgres: cpu('postgres'),
    answered,
    rps: runs.reduce((a, r) => a + r.rps, 0) / runs.length,
    p99: Math.max(...runs.map((r) => r.p99)),
  };
}

/** How many users the profile load reads in turn. */
const PROFILE_USERS = Number(process.env.BENCH_PROFILE_USERS ?? 64);

/**
 * Request CPU: the CPU the server process spends per request (user + system, every
 * thread, read from /proc around a fixed number of requests) as a ratio to a Fastify hello
 * world's under the same load. The load generator shares the 2 cores, so req/s measures it as
 * much as the server; the server's own CPU per request does not.
 */
async function http(b) {
  buildServer();
  section('HTTP: starting the server (embedded PostgreSQL) and the Fastify hello world');
  const herald = await startHerald(b.webOut);
  const hello = await startHello();
  const { token } = herald.login;
  console.log(`server ${herald.base} (data ${herald.dataDir}), hello world ${hello.url}`);
  await browserCheck(herald.base, herald.login, b);

  const auth = { authorization: `Bearer ${token}` };
  const profileUsers = await createUsers(herald.base, token, PROFILE_USERS);
  // Measured on the server that just hashed these passwords and then sat idle, as a
  // production server does: no restart before the load.
  console.log(`created ${profileUsers.length} Users (the Admin reads their profiles in turn)`);
  const pgPid = postgresPid(herald.dataDir);
  const heraldWatch = [
    { name: 'server', pid: herald.server.child.pid },
    ...(pgPid ? [{ name: 'postgres', pid: pgPid, tree: true }] : []),
  ];
  const helloWatch = [{ name: 'server', pid: hello.proc.child.pid }];
  const endpoints = [
    {
      id: 'request CPU',
      name: 'GET /api/session',
      path: '/api/session',
      max: 2,
      note: 'auth, no DB read',
    },
    {
      id: 'request CPU',
      name: 'GET /api/users/profile/:id',
      paths: profileUsers.map((id) => `/api/users/profile/${id}`),
      max: 4,
      note: `one indexed read, ${PROFILE_USERS} users in turn`,
    },
  ];
  for (const e of endpoints) {
    e.path ??= e.paths[0];
    const p = await probe(herald.base + e.path, auth);
    e.ok = p.status === 200;
    if (!e.ok) console.log(`${e.name}: answers ${p.status} ${p.body}; not measured`);
  }

  // What the server burns with no request at all (timers, background jobs) lands in every
  // run's figure too; shown so that a busy idle server is seen, not subtracted.
  const idleFrom = cpuMicros(herald.server.child.pid);
  await sleep(2000);
  const idle = (cpuMicros(herald.server.child.pid) - idleFrom) / 2;
  console.log(`server idle: ${micros(idle)} of CPU a second`);

  section(
    `HTTP load: autocannon, ${LOAD.connections} connections, ${count(LOAD.requests)} requests a run after ${LOAD.warmup} s of warm-up, pipelining 1, one run at a time; CPU of each server process from /proc (Linux) over exactly those requests`,
  );
  console.log(`before: ${busy()}`);
  // Rounds alternate the reference and the endpoints, and a last reference closes them, so
  // drift on a shared machine weighs on both sides of each ratio alike.
  const refs = [];
  const measured = endpoints.filter((x) => x.ok);
  const fixed = { amount: LOAD.requests };
  for (let round = 1; round <= HTTP_ROUNDS; round++) {
    refs.push(await load(hello.url, { ...fixed, watch: helloWatch }));
    show(`Fastify hello world (reference, round ${round})`, refs.at(-1));
    for (const e of measured) {
      const opts = { ...fixed, headers: auth, paths: e.paths, watch: heraldWatch };
      (e.runs ??= []).push(await load(herald.base + e.path, opts));
      show(`${e.name} (${e.note}, round ${round})`, e.runs.at(-1));
    }
  }
  refs.push(await load(hello.url, { ...fixed, watch: helloWatch }));
  show('Fastify hello world (reference, closing)', refs.at(-1));
  for (const e of measured) e.result = perRequest(e.runs);
  const session = endpoints[0];
  let half;
  if (session.result) {
    const rate = Math.max(1, Math.round(session.result.rps / 2));
    half = await load(herald.base + session.path, { headers: auth, overallRate: rate });
    half.rate = rate;
    show(`GET /api/session at 50% of peak (${rate}/s, ${LOAD.duration} s)`, half);
  }
  const loginStorm = await stormCheck(herald.base, session.path, auth);
  const ref = perRequest(refs);
  console.log(
    `reference: ${micros(ref.cpu)} of server CPU a request over ${count(ref.answered)} requests (runs ${refs.map((r) => micros(r.cpu.server / r.answered)).join(', ')}); ${rps(ref.rps)}`,
  );
  console.log(`after: ${busy()} (this bench itself keeps about 2 busy)`);

  for (const e of endpoints) {
    const target = `<= ${e.max.toFixed(2)}x`;
    if (!e.result) {
      rows.push([e.id, e.name, 'not measured', `hello ${micros(ref.cpu)}`, 'n/a', target, '']);
      continue;
    }
    const r = e.result;
    row(
      e.id,
      `${e.name}: server CPU per request`,
      micros(r.cpu),
      `hello ${micros(ref.cpu)}`,
      r.cpu / ref.cpu,
      target,
      e.max,
      false,
    );
    if (Number.isFinite(r.postgres)) {
      rows.push([
        '',
        '  PostgreSQL CPU per request (info)',
        micros(r.postgres),
        '',
        '',
        'info',
        '',
      ]);
    }
    rows.push([
      '',
      '  req/s (info: the load generator shares the cores)',
      rps(r.rps),
      `hello ${rps(ref.rps)}`,
      ratio(r.rps / ref.rps),
      'info',
      '',
    ]);
    rows.push(['', `  p99 at full load`, ms(r.p99), `hello ${ms(ref.p99)}`, '', '', '']);
  }
  if (half) {
    row(
      'request CPU',
      `GET /api/session p99 at 50% of peak`,
      ms(half.p99),
      'budget 10 ms',
      half.p99 / 10,
      '<= 1.00x',
      1,
      false,
    );
  }
  if (loginStorm) stormRows(loginStorm);
  results.http = { idleCpuPerSecond: idle, refs, ref, endpoints, half, loginStorm };

  section('Stopping the servers');
  await hello.proc.stop();
  await herald.server.stop();
}

const count = (n) => Math.round(n).toLocaleString('en-US');

/** Login storm: GET /api/session idle, then during a login storm (bench/login-storm.mjs). */
async function stormCheck(base, probePath, auth) {
  section(
    `Login storm: ${probePath} at ${STORM.probeRate} req/s for ${LOAD.duration} s idle, then during ${STORM.rate} wrong logins/s (at most ${STORM.maxInFlight} unanswered) from ${STORM.addresses} loopback addresses, each login a different unknown email`,
  );
  const s = await measureLoginStorm(base, probePath, auth);
  show(`${probePath} idle (${STORM.probeRate}/s)`, s.idle);
  show(`${probePath} during the login storm`, s.during);
  const by = (code) => s.storm.statuses[code] ?? 0;
  console.log(
    `storm: ${count(s.storm.sent)} logins in ${s.storm.seconds.toFixed(1)} s: ${count(by(401))} hashed and refused (401), ${count(by(503))} shed by the full hash queue (503, Retry-After up to ${s.storm.retryAfterMax ?? 'n/a'} s), ${count(by(429))} rate-limited (429), ${count(s.storm.errors)} socket errors, ${count(s.storm.skipped)} not sent (${STORM.maxInFlight} unanswered); other statuses ${JSON.stringify(Object.fromEntries(Object.entries(s.storm.statuses).filter(([c]) => !['401', '503', '429'].includes(c))))}`,
  );
  return s;
}

function stormRows(s) {
  row(
    'login storm',
    'GET /api/session p99 during a login storm',
    ms(s.during.p99),
    `idle ${ms(s.idle.p99)}`,
    s.during.p99 / s.idle.p99,
    '<= 2.00x',
    2,
    false,
  );
  const by = (code) => count(s.storm.statuses[code] ?? 0);
  rows.push([
    '',
    `  storm of ${count(s.storm.sent)} logins from ${STORM.addresses} IPs (info)`,
    `${by(503)} x 503`,
    `${by(429)} x 429, ${by(401)} x 401`,
    '',
    'info',
    '',
  ]);
}
const perSec = (n) => `${n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toFixed(0)}/s`;

/** A row whose figure must be exactly 0 (a hard invariant), with its verdict. */
function zeroRow(id, what, n, ref) {
  rows.push([id, what, count(n), ref, '', 'must be 0', n === 0 ? 'meets' : 'MISSES']);
}

function showDebits(name, r) {
  const bad = r.rejected + r.errors + (r.non2xx ?? 0) + (r.timeouts ?? 0);
  const note = bad
    ? `  (!) ${r.rejected ?? r.non2xx} refused, ${r.errors} errors${r.firstError ? `: ${r.firstError}` : ''}`
    : '';
  console.log(
    `${name.padEnd(52)} ${perSec(r.rate).padStart(8)}  p50 ${ms(r.p50)}  p99 ${ms(r.p99)}${note}`,
  );
}

/** The reference brackets the measured runs; its mean evens out drift. */
function bracket(a, b) {
  const mean = (a.rate + b.rate) / 2;
  console.log(`reference: mean ${perSec(mean)} (runs ${perSec(a.rate)}, ${perSec(b.rate)})`);
  return mean;
}

async function ledger() {
  buildServer();
  section(
    `Ledger: a fresh embedded PostgreSQL; ${count(LEDGER.rows)} entries over 1,000 users (1 Admin, 20 Resellers, 80 Sub-Resellers, 899 Users)`,
  );
  const l = await startLedger();
  const { setup, worker } = l;
  const t = setup.timings;
  const loadSeconds = t.rows + t.indexes + t.vacuum;
  console.log(
    `load: ${loadSeconds.toFixed(1)} s (rows ${t.rows.toFixed(1)} s, indexes and keys ${t.indexes.toFixed(1)} s, vacuum ${t.vacuum.toFixed(1)} s), ${perSec(setup.entries / loadSeconds)} entries; server ${l.base} on it`,
  );
  rows.push([
    '',
    `Ledger load, ${count(setup.entries)} entries (info)`,
    `${loadSeconds.toFixed(1)} s`,
    `${count(setup.viewers)} viewer rows`,
    '',
    'info',
    '',
  ]);
  results.ledger = { settings: LEDGER, setup };

  section(
    `Ledger history: GET /api/credits/history, ${LEDGER.historyRequests} requests per page (after 20) on one keep-alive connection, asked in turn with the viewer's own profile (GET /api/users/profile/:id, one row) as the reference; pages of 50`,
  );
  const creditType = 'With DP - domestic';
  const history = await measureHistory(l, creditType);
  const depths = await worker.call('depths', {
    cursor: history[0].cursor,
    creditType,
  });
  for (const h of history) {
    const label = `${h.who}${h.query.creditType ? `, creditType=${creditType}` : ''}`;
    const depth = {
      Reseller: depths.reseller,
      'Sub-Reseller': depths.sub,
      Admin: h.query.creditType ? depths.type : depths.all,
    }[h.who];
    const capped = (r) =>
      r.n < LEDGER.historyRequests
        ? `  (!) only ${r.n} requests in ${LEDGER.historyMaxSeconds} s`
        : '';
    const line = (name, r) =>
      console.log(
        `${`${label}: ${name}`.padEnd(72)} p50 ${ms(r.p50)}  p95 ${ms(r.p95)}  p99 ${ms(r.p99)}  ${r.rows} rows, ${kB(r.bytes)}${capped(r)}`,
      );
    line('own profile, one row (reference)', h.profile);
    line('first page (with the filter lists)', h.first);
    line(`page 2 (cursor ${h.first.page.nextCursor})`, h.second);
    line(`cursor ${h.cursor} (${count(depth)} rows deep)`, h.deep);
    console.log(
      `${''.padEnd(72)} deep / first ${ratio(h.deep.p50 / h.first.p50)}, deep / page 2 ${ratio(h.deep.p50 / h.second.p50)} (p50)`,
    );
    row(
      'credit ledger history',
      `History ${label}: deep page p50`,
      ms(h.deep.p50),
      `first page ${ms(h.first.p50)}`,
      h.deep.p50 / h.first.p50,
      '<= 2.00x',
      2,
      false,
    );
    const worst = Math.max(h.first.p95, h.deep.p95);
    row(
      'credit ledger history',
      `  p95, worse of first and deep`,
      ms(worst),
      `profile p95 ${ms(h.profile.p95)}`,
      worst / h.profile.p95,
      '<= 2.00x',
      2,
      false,
    );
  }
  const strip = (r) => ({ ...r, page: undefined });
  results.ledger.history = history.map(({ first, second, deep, ...h }) => ({
    ...h,
    first: strip(first),
    second: strip(second),
    deep: strip(deep),
  }));
  results.ledger.depths = depths;

  const run = { clients: LEDGER.clients, seconds: LEDGER.seconds, warmup: LEDGER.warmup };
  section(
    `Ledger debits, many accounts: ${LEDGER.clients} clients, ${LEDGER.seconds} s each (+${LEDGER.warmup} s warm-up), 1 credit from a random one of ${count(setup.accounts)} accounts, one at a time`,
  );
  console.log(`before: ${busy()}`);
  const many1 = await worker.call('debits', { ...run, mode: 'bare', target: 'many' });
  showDebits('bare: the same SQL on a pg pool (reference, 1st)', many1);
  const manySvc = await worker.call('debits', { ...run, mode: 'service', target: 'many' });
  showDebits('ledger.service debit, a transaction each', manySvc);
  const manyHttp = await httpDebits(l);
  showDebits(`POST /api/credits, Admin burns (autocannon, ${LEDGER.clients} conns)`, {
    ...manyHttp,
    rejected: 0,
  });
  const many2 = await worker.call('debits', { ...run, mode: 'bare', target: 'many' });
  showDebits('bare: the same SQL on a pg pool (reference, 2nd)', many2);
  const manyRef = bracket(many1, many2);
  const manyNamed = await worker.call('debits', { ...run, mode: 'prepared', target: 'many' });
  showDebits('bare, as named prepared statements (info)', manyNamed);
  row(
    'ledger debits',
    'Debits, service layer, many accounts',
    perSec(manySvc.rate),
    `bare ${perSec(manyRef)}`,
    manySvc.rate / manyRef,
    '>= 0.80x',
    0.8,
    true,
  );
  row(
    'ledger debits',
    'Debits, POST /api/credits, many accounts',
    perSec(manyHttp.rate),
    `bare ${perSec(manyRef)}`,
    manyHttp.rate / manyRef,
    '>= 0.50x',
    0.5,
    true,
  );

  rows.push([
    'ledger debits',
    '  bare SQL as named prepared statements (info)',
    perSec(manyNamed.rate),
    `bare ${perSec(manyRef)}`,
    ratio(manyNamed.rate / manyRef),
    'info',
    '',
  ]);

  const hot = await worker.call('topUp', { count: 5_000_000 });
  section(
    `Ledger debits, one hot account (${hot.email}, ${hot.creditType}, ${count(hot.balance)} credits): ${LEDGER.clients} clients, ${LEDGER.seconds} s each`,
  );
  const hot1 = await worker.call('debits', { ...run, mode: 'bare', target: 'hot' });
  showDebits('bare: the same SQL on a pg pool (reference, 1st)', hot1);
  const hotSvc = await worker.call('debits', { ...run, mode: 'service', target: 'hot' });
  showDebits('ledger.service debit, a transaction each', hotSvc);
  const hot2 = await worker.call('debits', { ...run, mode: 'bare', target: 'hot' });
  showDebits('bare: the same SQL on a pg pool (reference, 2nd)', hot2);
  const hotRef = bracket(hot1, hot2);
  console.log(`after: ${busy()}`);
  row(
    'ledger debits',
    'Debits, service layer, one hot account',
    perSec(hotSvc.rate),
    `bare ${perSec(hotRef)}`,
    hotSvc.rate / hotRef,
    '>= 0.90x',
    0.9,
    true,
  );
  results.ledger.debits = {
    many1,
    manySvc,
    manyHttp,
    many2,
    manyNamed,
    hot,
    hot1,
    hotSvc,
    hot2,
  };

  section(
    `Ledger storm: ${LEDGER.stormClients} HTTP clients, ${LEDGER.stormSeconds} s, debits of 1-100 credits from ${LEDGER.stormAccounts} accounts asking ~10x their balance; Idempotency-Key on each, 2% cut off and retried`,
  );
  const s = await storm(l, manyHttp.rate || 500);
  const c = s.counts;
  const k = s.check;
  const other = Object.entries(c.other).map(([st, n]) => `${n} x ${st}`);
  console.log(
    `asked: ${count(c.requests)} debits for ${count(c.asked)} credits, ${(c.asked / s.prep.available).toFixed(1)}x the ${count(s.prep.available)} held (${count(s.prep.each)} on each of ${s.prep.accounts.length} accounts); ${perSec(c.requests / s.elapsed)}, p50 ${ms(s.latency.p50)}, p99 ${ms(s.latency.p99)}`,
  );
  console.log(
    `answers: ${count(c.committed)} committed (${count(c.replayed)} of them replayed), ${count(c.rejected)} refused 409 insufficient credits, ${other.length ? other.join(', ') : 'no other status'}, ${c.errors} gave up; ${c.cut} cut off by the client, ${c.retries} retries, ${c.inProgress} answered "in progress"`,
  );
  console.log(
    `overdrafts: ${k.negative} balances below zero of ${count(k.balances)}; reconciliation (one query over the whole ledger, ${k.reconcileSeconds.toFixed(1)} s): ${k.mismatches} balances differ from their entries' Σ Added − Σ Removed`,
  );
  const lost = s.prep.available - k.removed - k.left;
  console.log(
    `exactly once: ${count(k.entries)} storm entries for ${count(c.committed)} committed keys: ${k.duplicates} duplicated, ${k.missing} missing, ${k.phantom} without a committed answer; removed ${count(k.removed)} = committed ${count(c.committedAmount)}${k.removed === c.committedAmount ? '' : ' (!)'}; left ${count(k.left)} (held − removed − left = ${lost}), lowest ${k.minLeft}`,
  );
  zeroRow(
    'ledger overdraw',
    'Storm: balances below zero',
    k.negative,
    `${count(k.balances)} balances`,
  );
  zeroRow(
    'ledger overdraw',
    'Storm: balances not equal to their entries',
    k.mismatches,
    'one SQL query',
  );
  const notOnce =
    k.duplicates + k.missing + k.phantom + c.errors + Math.abs(k.removed - c.committedAmount);
  zeroRow(
    'ledger overdraw',
    'Storm: debits not exactly once',
    notOnce,
    `${count(c.committed)} committed`,
  );
  rows.push([
    'ledger overdraw',
    '  asked vs held (info)',
    count(c.asked),
    `held ${count(s.prep.available)}`,
    ratio(c.asked / s.prep.available),
    '~10x',
    '',
  ]);
  results.ledger.storm = s;

  section('Stopping the ledger server and PostgreSQL');
  await l.server.stop();
  await worker.stop();
}

/** Recipient parsing: the recipients parser in headless Chromium (bench/recipients-parse.mjs). */
async function recipients() {
  section('Recipients: parsing 1M numbers in a Worker in headless Chromium (paste, CSV, XLSX)');
  const r = await measureRecipients();
  const mb = (p) => `${(r.sizes[p] / 1e6).toFixed(1)} MB`;
  for (const [name, file, ours, bare, papaOnly, papa] of [
    ['paste', '/paste.txt', r.paste, r.pasteBare, r.pastePapa, r.pastePapaRules],
    ['CSV', '/list.csv', r.csv, r.csvBare, r.csvPapa, r.csvPapaRules],
  ]) {
    console.log(
      `${name} (${mb(file)}): ${ms(ours.ms)}, kept ${ours.kept}, invalid ${ours.invalid}, duplicates ${ours.duplicates}; bare scan + sort ${ms(bare.ms)}; PapaParse with the same rules ${ms(papa.ms)} (its parse alone ${ms(papaOnly.ms)}, ${(papaOnly.ms / ours.ms).toFixed(2)}x ours); longest main-thread task ${ms(ours.longest)}`,
    );
    row(
      'recipient parsing',
      `${name}: parse vs bare scan + sort`,
      ms(ours.ms),
      ms(bare.ms),
      ours.ms / bare.ms,
      '<= 1.5x',
      1.5,
    );
    row(
      'recipient parsing',
      `${name}: PapaParse parser / ours`,
      ms(ours.ms),
      ms(papa.ms),
      papa.ms / ours.ms,
      '>= 4x',
      4,
      true,
    );
    row(
      'recipient parsing',
      `${name}: longest main-thread task`,
      ms(ours.longest),
      '50 ms',
      ours.longest / 50,
      '< 1x',
      1,
    );
  }
  const x = r.xlsx;
  console.log(
    `XLSX (${mb('/list.xlsx')}): ${ms(x.ms)}, kept ${x.kept}, invalid ${x.invalid}, duplicates ${x.duplicates}; inflate only ${ms(r.xlsxInflate.ms)}; longest main-thread task ${ms(x.longest)}`,
  );
  row(
    'recipient parsing',
    'XLSX: parse vs native inflate',
    ms(x.ms),
    ms(r.xlsxInflate.ms),
    x.ms / r.xlsxInflate.ms,
    '<= 4x',
    4,
  );
  row(
    'recipient parsing',
    'XLSX: longest main-thread task',
    ms(x.longest),
    '50 ms',
    x.longest / 50,
    '< 1x',
    1,
  );
  results.recipients = r;
}

/** Campaign intake: a 1M-recipient campaign over HTTP vs a raw COPY (bench/campaign-ingest.mjs). */
async function campaigns() {
  buildServer();
  section(
    `Campaign ingest: ${count(INGEST.recipients)} recipients over HTTP (multipart) to the 201, ${INGEST.runs} runs, each after a raw COPY of the same rows into a table of the same shape and indexes without a foreign key (fresh campaign id, text COPY from node-pg in one transaction); then one more with GET /api/session hammered on ${INGEST.probeClients} connections`,
  );
  console.log(`before: ${busy()}`);
  const c = await measureIngest();
  console.log(`after: ${busy()}`);
  const mb = (b) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  const peak = c.memory.peakReset
    ? `peak during the runs (VmHWM, reset before them) ${mb(c.memory.after.hwm)}`
    : `peak since start (VmHWM; could not reset it) ${mb(c.memory.after.hwm)}`;
  console.log(
    `median of ${c.runs.length}: ingest ${ms(c.ingest)}, raw COPY without a foreign key ${ms(c.reference)} (ratio of medians ${ratio(c.ingest / c.reference)}, median of per-run ratios ${ratio(c.pairRatio)}); server RSS ${mb(c.memory.before.rss)} before, ${peak}`,
  );
  row(
    'campaign intake',
    `${count(INGEST.recipients)}-recipient campaign, request to 201`,
    ms(c.ingest),
    `raw COPY, no FK ${ms(c.reference)}`,
    c.ingest / c.reference,
    '<= 1.50x',
    1.5,
    false,
  );
  rows.push([
    'campaign intake',
    '  `to` as a streamed file part (info, 1 run)',
    ms(c.filePartMs),
    `raw COPY, no FK ${ms(c.reference)}`,
    ratio(c.filePartMs / c.reference),
    'info',
    '',
  ]);
  rows.push([
    'campaign intake',
    '  raw COPY with a foreign key to campaigns (info, 1 run)',
    ms(c.withForeignKeyMs),
    `raw COPY, no FK ${ms(c.reference)}`,
    ratio(c.withForeignKeyMs / c.reference),
    'info',
    '',
  ]);
  rows.push([
    'campaign intake',
    '  server peak RSS during ingest (info)',
    mb(c.memory.after.hwm),
    `RSS before ${mb(c.memory.before.rss)}`,
    '',
    'info',
    '',
  ]);
  row(
    'campaign intake',
    'GET /api/session p99 during ingest',
    ms(c.during.p99),
    `idle ${ms(c.idle.p99)}`,
    c.during.p99 / c.idle.p99,
    'info',
    NaN,
    false,
  );
  row(
    'campaign intake',
    '  its p99 vs the 20 ms event-loop budget',
    ms(c.during.p99),
    'budget 20 ms',
    c.during.p99 / 20,
    '<= 1.00x',
    1,
    false,
  );
  row(
    'campaign intake',
    '  its throughput during ingest',
    perSec(c.during.rps),
    `idle ${perSec(c.idle.rps)}`,
    c.during.rps / c.idle.rps,
    '>= 0.70x',
    0.7,
    true,
  );
  results.campaigns = c;
}

/** Alerts bell: the bell's reads at 1M notifications, 1,000 open SSE streams (bench/alerts.mjs). */
async function alerts() {
  buildServer();
  section(
    `Alerts: ${count(ALERTS.rows)} notifications over ${count(ALERTS.users)} users in a fresh embedded PostgreSQL; ${ALERTS.requests} requests each (after 20) on one keep-alive connection, in turn with the user's own profile (one row) as the reference`,
  );
  const a = await measureAlerts();
  const { profile, count: unread, list, streams } = a;
  console.log(
    `load ${(a.setup.timings.rows + a.setup.timings.vacuum).toFixed(1)} s; probe user: ${a.setup.probe.all} notifications, ${a.setup.probe.unread} unread`,
  );
  const p = (r) => `p50 ${ms(r.p50)}  p95 ${ms(r.p95)}  p99 ${ms(r.p99)}`;
  console.log(`GET /api/users/profile/:id (reference)  ${p(profile)}`);
  console.log(`GET /api/notifications?unread=true&limit=1 (count)  ${p(unread)}`);
  console.log(`GET /api/notifications?unread=true (bell list, ${list.rows} rows)  ${p(list)}`);
  row(
    'alerts bell',
    'Unread count p95',
    ms(unread.p95),
    `profile ${ms(profile.p95)}`,
    unread.p95 / profile.p95,
    '<= 2.00x',
    2,
    false,
  );
  row(
    'alerts bell',
    'Bell list p95',
    ms(list.p95),
    `profile ${ms(profile.p95)}`,
    list.p95 / profile.p95,
    '<= 2.00x',
    2,
    false,
  );
  const mb = (b) => `${(b / 2 ** 20).toFixed(1)} MiB`;
  console.log(
    `${streams.count} SSE streams: server RSS ${mb(streams.rssBefore)} -> ${mb(streams.rssAfter)}, ${kB(streams.perStream)} per stream; one broadcast NOTIFY reached all in p50 ${ms(streams.delivery.p50)}, p99 ${ms(streams.delivery.p99)}, max ${ms(streams.delivery.max)}`,
  );
  rows.push([
    'alerts bell',
    `${streams.count} open SSE streams: RSS growth per stream (info)`,
    kB(streams.perStream),
    `RSS ${mb(streams.rssBefore)} before`,
    '',
    'info',
    '',
  ]);
  rows.push([
    'alerts bell',
    `  broadcast to all ${streams.count} streams, last arrival (info)`,
    ms(streams.delivery.max),
    `p50 ${ms(streams.delivery.p50)}`,
    '',
    'badge within 1 s',
    streams.delivery.max <= 1000 ? 'meets' : 'MISSES',
  ]);
  results.alerts = a;
}

/**
 * Backup rate: the full backup of the ledger section's 3M entries plus 1M recipients through the
 * built server, against a raw COPY of the same tables: RSS growth and rate.
 */
async function backup() {
  buildServer();
  section(
    `Backup: ${count(LEDGER.rows)} ledger entries (the ledger section's load) and ${count(BACKUP.recipients)} recipients; POST /api/backup/generate-download, progress polled, file streamed back; against COPY ... TO STDOUT of the same tables, ${BACKUP.pairs} times in turn (the median pair counts)`,
  );
  const l = await startLedger();
  const { loadSeconds, copy, backup: b, pairs, rssGrowth } = await measureBackup(l);
  const mb = (x) => `${(x / 2 ** 20).toFixed(1)} MiB`;
  const rate = (rowsN, s) => `${count(Math.round(rowsN / s))} rows/s`;
  console.log(
    `recipients loaded in ${loadSeconds.toFixed(1)} s; median pair of ${pairs.length}: COPY ${count(copy.rows)} rows, ${mb(copy.bytes)} in ${copy.seconds.toFixed(1)} s; backup: ${count(b.rows)} rows, ${mb(b.bytes)} .xlsx in ${b.seconds.toFixed(1)} s (built in ${b.buildSeconds.toFixed(1)} s); server RSS ${mb(pairs[0].backup.rssBefore)} before the first, highest peak ${mb(pairs[0].backup.rssBefore + rssGrowth)}`,
  );
  const growth = rssGrowth / 2 ** 20;
  row(
    'backup rate',
    'Backup: server RSS growth',
    mb(rssGrowth),
    'limit 200 MiB',
    growth / 200,
    '<= 1.00x',
    1,
    false,
  );
  row(
    'backup rate',
    'Backup rate vs raw COPY',
    rate(b.rows, b.seconds),
    `COPY ${rate(copy.rows, copy.seconds)}`,
    b.rows / b.seconds / (copy.rows / copy.seconds),
    '>= 0.33x',
    0.33,
    true,
  );
  results.backup = { settings: BACKUP, loadSeconds, copy, backup: b, pairs, rssGrowth };
}

/**
 * Analytics: the five analytics calls over the ledger section's 3M entries, as the Admin and a
 * Reseller, 30 days and all time, against the caller's one-row profile read in turn with them.
 */
async function analytics() {
  buildServer();
  section(
    `Analytics: ${count(LEDGER.rows)} ledger entries (the ledger section's load); the five /api/analytics calls, ${ANALYTICS.requests} requests each (after 20), in turn with the caller's own profile (one row) as the reference`,
  );
  const l = await startLedger();
  const cases = await measureAnalytics(l);
  const p = (r) => `p50 ${ms(r.p50)}  p95 ${ms(r.p95)}  p99 ${ms(r.p99)}`;
  for (const c of cases) {
    console.log(
      `${c.role}, range=${c.range}: GET /api/users/profile/:id (reference)  ${p(c.profile)}`,
    );
    for (const call of c.calls) {
      const what = call.summary ? JSON.stringify(call.summary) : `${call.rows} rows`;
      console.log(`  ${call.path} (${what})  ${p(call)}`);
      row(
        'analytics',
        `${c.role} ${call.path.replace('/api/analytics', '') || 'summary'} ${c.range === 'all' ? 'all time' : `${c.range} d`} p95`,
        ms(call.p95),
        `profile ${ms(c.profile.p95)}`,
        call.p95 / c.profile.p95,
        '<= 10.00x',
        10,
        false,
      );
    }
  }
  results.analytics = { settings: ANALYTICS, cases };
  section('Stopping the ledger server and PostgreSQL');
  await l.server.stop();
  await l.worker.stop();
}

/**
 * Delivery: the delivery engine against the simulator in its own process: sustained rate vs the
 * cap with the app's CPU, a BENCH_DELIVERY_BIG campaign's wall time vs recipients / cap, status
 * webhooks at 3x the send rate, and kill -9 mid-campaign (duplicates, skipped).
 */
async function delivery({ sustainedOnly = false } = {}) {
  buildServer();
  section(
    sustainedOnly
      ? `Delivery, sustained rate only: ${count(DELIVERY.seconds)} s at a ${count(DELIVERY.rate)} msg/s cap against the simulator, then the WhatsApp fake, each as its own process`
      : `Delivery: simulator as its own process (and the WhatsApp fake for the sustained rate); ${count(DELIVERY.seconds)} s at a ${count(DELIVERY.rate)} msg/s cap, ${count(DELIVERY.big)} recipients at ${count(DELIVERY.bigRate)} msg/s (twice, the second with kill -9 at ${Math.round(DELIVERY.killAt * 100)}%), webhooks at 3x the send rate`,
  );
  const d = await measureDelivery(console.log, { sustainedOnly });
  const micro = (n) => `${Number.isFinite(n) ? n.toFixed(0) : 'n/a'} µs`;
  for (const [s, tag] of [
    [d.sustained, ''],
    [d.whatsapp, ' (WhatsApp)'],
    [d.endpoint, ' (endpoint)'],
  ]) {
    row(
      `delivery rate${tag}`,
      `Delivery${tag}: sustained rate vs cap`,
      `${s.rate.toFixed(1)} msg/s`,
      `cap ${count(s.cap)} msg/s`,
      s.rate / s.cap,
      '>= 0.98x',
      0.98,
      true,
    );
    row(
      `delivery CPU${tag}`,
      `  app CPU at that rate, share of one core (${micro(s.appCpuPerMessage)}/msg)`,
      `${s.appCorePercent.toFixed(1)}%`,
      `budget ${(25 * s.cap) / 1000}%`,
      s.appCorePercent / ((25 * s.cap) / 1000),
      '<= 1.00x',
      1,
      false,
    );
    rows.push([
      `delivery CPU${tag}`,
      '  429s as a share of sends (info)',
      `${(s.throttledShare * 100).toFixed(2)}%`,
      `${count(s.window.throttled)} of ${count(s.window.accepted + s.window.throttled)}`,
      '',
      'info',
      '',
    ]);
  }
  const sim = d.sustained;
  const wa = d.whatsapp;
  rows.push([
    'delivery CPU (WhatsApp)',
    '  app CPU per message, WhatsApp vs simulator (info)',
    micro(wa.appCpuPerMessage),
    `simulator ${micro(sim.appCpuPerMessage)}`,
    ratio(wa.appCpuPerMessage / sim.appCpuPerMessage),
    'info',
    '',
  ]);
  const e = d.endpoint.endpoint;
  row(
    'delivery endpoint',
    `  status change to the customer's endpoint, p99 (${count(e.recipients)} in ${count(e.calls)} calls)`,
    `${(e.p99 / 1000).toFixed(1)} s`,
    'budget 10 s',
    e.p99 / 10_000,
    '<= 1.00x',
    1,
    false,
  );
  results.delivery = d;
  if (sustainedOnly) return;
  const b = d.big;
  const ideal = b.recipients / DELIVERY.bigRate;
  row(
    'delivery at scale',
    `Delivery: ${count(b.recipients)} recipients, Approved to last accepted`,
    b.stalled ? `stalled at ${count(b.accepted)}` : `${b.wallSeconds.toFixed(1)} s`,
    `${count(b.recipients)} / ${count(DELIVERY.bigRate)} = ${ideal.toFixed(1)} s`,
    b.wallSeconds / ideal,
    '<= 1.05x',
    1.05,
    false,
  );
  const w = d.webhooks;
  row(
    'status webhooks',
    `Webhooks at ${count(w.rate)} events/s (3x send rate): p99`,
    ms(w.offered.p99),
    'budget 50 ms',
    w.offered.p99 / 50,
    '<= 1.00x',
    1,
    false,
  );
  row(
    'status webhooks',
    '  events absorbed a second at that offered rate',
    `${count(w.offered.absorbed)}/s`,
    `3x send rate ${count(w.rate)}/s`,
    w.offered.absorbed / w.rate,
    '>= 1.00x',
    0.995,
    true,
  );
  rows.push([
    'status webhooks',
    '  most absorbed, 4 clients back to back (info)',
    `${count(w.ceiling.absorbed)}/s`,
    `3x send rate ${count(w.rate)}/s`,
    ratio(w.ceiling.absorbed / w.rate),
    'info',
    '',
  ]);
  const k = d.killed;
  row(
    'delivery crash',
    'kill -9 mid-campaign: duplicates',
    count(k.duplicates),
    `in flight <= ${count(DELIVERY.concurrency)} (${k.kill?.leftSending ?? '?'} left sending)`,
    k.duplicates / DELIVERY.concurrency,
    '<= 1.00x',
    1,
    false,
  );
  rows.push([
    'delivery crash',
    'kill -9 mid-campaign: skipped',
    count(k.skipped),
    '0 expected',
    '',
    '0',
    k.skipped === 0 ? 'meets' : 'MISSES',
  ]);
  rows.push([
    'delivery crash',
    '  kill -9: restart to sending again (info)',
    k.kill?.resumedAfterSeconds === undefined
      ? 'never'
      : `${k.kill.resumedAfterSeconds.toFixed(1)} s`,
    `killed at ${count(k.kill?.accepted ?? 0)} accepted`,
    '',
    'info',
    '',
  ]);
}

/** Page speed on Lighthouse's mobile preset, cold cache, against the targets. */
async function lighthouseSection(b) {
  buildServer();
  section('Page speed: Lighthouse 12.2.3, mobile preset, cold cache (bench web build)');
  const herald = await startHerald(b.webOut);
  const l = await measureLighthouse(
    herald.base,
    herald.login,
    Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3),
  );
  await herald.server.stop();
  if (l.skipped) {
    console.log(`skipped: ${l.skipped}`);
    return;
  }
  for (const p of l.pages) {
    const each = p.runs
      .map((r) => `LCP ${ms(r.lcpMs)} TBT ${ms(r.tbtMs)} CLS ${r.cls.toFixed(3)}`)
      .join('; ');
    console.log(
      `${p.name}: ${each}; unused JS ${kB(p.unusedJsBytes)} (${p.runs[0]?.finalUrl ?? ''})`,
    );
    const cap = (what, ours, shown, target, targetShown) =>
      row(
        'page speed',
        `${p.name} ${what}`,
        shown,
        `target ${targetShown}`,
        ours / target,
        '<= 1.00x',
        1,
        false,
      );
    cap('LCP', p.lcpMs, ms(p.lcpMs), p.lcpTargetMs, ms(p.lcpTargetMs));
    cap('TBT', p.tbtMs, ms(p.tbtMs), TBT_MS, ms(TBT_MS));
    cap('CLS', p.cls, p.cls.toFixed(3), CLS_MAX, CLS_MAX.toFixed(3));
  }
  results.lighthouse = l;
}

try {
  if (only.includes('bundles') || only.includes('http') || only.includes('lighthouse')) {
    const b = await bundles();
    if (only.includes('http')) await http(b);
    if (only.includes('lighthouse')) await lighthouseSection(b);
  }
  if (only.includes('ledger')) await ledger();
  if (only.includes('recipients')) await recipients();
  if (only.includes('campaigns')) await campaigns();
  if (only.includes('alerts')) await alerts();
  if (only.includes('analytics')) await analytics();
  if (only.includes('backup')) await backup();
  if (only.includes('delivery') || only.includes('delivery-whatsapp')) {
    await delivery({ sustainedOnly: !only.includes('delivery') });
  }
} catch (err) {
  console.error(
    `\nbench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
  );
  process.exitCode = 1;
} finally {
  await runCleanups();
}

console.log(`\n== Summary (${results.machine}; ${((Date.now() - started) / 1000).toFixed(0)} s)`);
console.log(table(rows));
writeFileSync(path.join(outRoot, 'results.json'), JSON.stringify({ ...results, rows }, null, 2));
console.log(`\nDetails: ${path.relative(root, path.join(outRoot, 'results.json'))}`);
