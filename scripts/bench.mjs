// `npm run bench`: performance targets 14, 15 and 21 (docs: shared/engineering/performance.md).
// Each figure is printed beside a reference measured in the same run on the same machine, with
// the ratio and the target. Nothing is asserted: it exits 0 unless something crashes.
// Settings: BENCH_CONNECTIONS (50), BENCH_DURATION (10 s), BENCH_WARMUP (2 s), CHROMIUM_PATH.
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureBundles } from '../bench/bundle.mjs';
import { observeRoutes } from '../bench/browser.mjs';
import { LOAD, load, probe, startHello, startHerald } from '../bench/http.mjs';
import { kB, ms, outRoot, ratio, root, rps, runCleanups, table } from '../bench/lib.mjs';

const started = Date.now();
mkdirSync(outRoot, { recursive: true });

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping the servers and removing the temp data`);
    void runCleanups().finally(() => process.exit(130));
  });
}

const rows = [['#', 'Measure', 'Ours', 'Reference (same run)', 'Ratio', 'Target', '']];
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
    21,
    '/login initial JS, gz',
    kB(login.jsGz),
    `React hello ${kB(b.hello.jsGz)}`,
    login.jsGz / b.hello.jsGz,
    '<= 1.30x',
    1.3,
    false,
  );
  row(
    21,
    'dashboard route JS, gz (info)',
    kB(dashboard.jsGz),
    `React hello ${kB(b.hello.jsGz)}`,
    dashboard.jsGz / b.hello.jsGz,
    'info',
    NaN,
    false,
  );
  row(
    21,
    'dashboard route JS vs 300 kB cap',
    kB(dashboard.jsGz),
    'budget 300.0 kB',
    dashboard.jsGz / 300_000,
    '<= 1.00x',
    1,
    false,
  );
  row(
    21,
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

function buildServer() {
  section('Building the server (apps/server/dist/main.js)');
  execSync('npm run build -w @herald/server', { cwd: root, stdio: 'inherit' });
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

function show(name, r) {
  const bad = r.non2xx + r.errors + r.timeouts;
  const note = bad ? `  (!) ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts` : '';
  console.log(
    `${name.padEnd(48)} ${rps(r.rps).padStart(13)}  p50 ${ms(r.p50)}  p99 ${ms(r.p99)}${note}`,
  );
}

async function http(b) {
  buildServer();
  section('HTTP: starting the server (embedded PostgreSQL) and the Fastify hello world');
  const herald = await startHerald(b.webOut);
  const hello = await startHello();
  const { token, user } = herald.login;
  console.log(`server ${herald.base} (data ${herald.dataDir}), hello world ${hello.url}`);
  await browserCheck(herald.base, herald.login, b);

  const auth = { authorization: `Bearer ${token}` };
  const endpoints = [
    { id: 14, name: 'GET /api/session', path: '/api/session', min: 0.85, note: 'auth, no DB read' },
    {
      id: 15,
      name: 'GET /api/users/profile/:id',
      path: `/api/users/profile/${user.id}`,
      min: 0.25,
      note: 'one indexed read',
    },
  ];
  for (const e of endpoints) {
    const p = await probe(herald.base + e.path, auth);
    e.ok = p.status === 200;
    if (!e.ok) console.log(`${e.name}: answers ${p.status} ${p.body}; not measured`);
  }

  section(
    `HTTP load: autocannon, ${LOAD.connections} connections, ${LOAD.duration} s (+${LOAD.warmup} s warm-up), pipelining 1, one run at a time`,
  );
  console.log(`before: ${busy()}`);
  const ref1 = await load(hello.url);
  show('Fastify hello world (reference, 1st)', ref1);
  for (const e of endpoints.filter((x) => x.ok)) {
    e.result = await load(herald.base + e.path, { headers: auth });
    show(`${e.name} (${e.note})`, e.result);
  }
  const session = endpoints[0];
  let half;
  if (session.result) {
    const rate = Math.max(1, Math.round(session.result.rps / 2));
    half = await load(herald.base + session.path, { headers: auth, overallRate: rate });
    half.rate = rate;
    show(`GET /api/session at 50% of peak (${rate}/s)`, half);
  }
  const ref2 = await load(hello.url);
  show('Fastify hello world (reference, 2nd)', ref2);
  // The reference brackets the other runs; its mean evens out drift on a shared machine.
  const ref = { rps: (ref1.rps + ref2.rps) / 2, p99: Math.max(ref1.p99, ref2.p99) };
  console.log(`reference: mean ${rps(ref.rps)} (runs ${rps(ref1.rps)}, ${rps(ref2.rps)})`);
  console.log(`after: ${busy()} (this bench itself keeps about 2 busy)`);

  for (const e of endpoints) {
    const target = `>= ${e.min.toFixed(2)}x`;
    if (!e.result) {
      rows.push([e.id, e.name, 'not measured', `hello ${rps(ref.rps)}`, 'n/a', target, '']);
      continue;
    }
    row(
      e.id,
      `${e.name} req/s`,
      rps(e.result.rps),
      `hello ${rps(ref.rps)}`,
      e.result.rps / ref.rps,
      target,
      e.min,
      true,
    );
    rows.push(['', `  p99 at full load`, ms(e.result.p99), `hello ${ms(ref.p99)}`, '', '', '']);
  }
  if (half) {
    row(
      14,
      `GET /api/session p99 at 50% of peak`,
      ms(half.p99),
      'budget 10 ms',
      half.p99 / 10,
      '<= 1.00x',
      1,
      false,
    );
  }
  results.http = { ref1, ref2, ref, endpoints, half };

  section('Stopping the servers');
  await hello.proc.stop();
  await herald.server.stop();
}

try {
  const b = await bundles();
  await http(b);
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
