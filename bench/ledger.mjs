// The credit ledger (docs/performance.md, ledger overdraw to credit ledger history): a 3M-entry
// ledger in a fresh embedded PostgreSQL, history pages through the API, debits through the service
// layer and HTTP against the same SQL run bare, one hot account, and a storm that must never
// overdraw. The database side (loading, service-layer and bare clients, checks) runs in
// bench/ledger-worker.ts under tsx; the HTTP clients run here, against the built server started on
// that database.
import { chmodSync, mkdtempSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { removeDataDir } from './http.mjs';
import { onCleanup, sleep, startServerOn, startWorker } from './lib.mjs';

const num = (name, fallback) => Number(process.env[name] ?? fallback);

export const LEDGER = {
  rows: num('BENCH_LEDGER_ROWS', 3_000_000),
  clients: num('BENCH_LEDGER_CLIENTS', 8),
  seconds: num('BENCH_LEDGER_SECONDS', 10),
  warmup: num('BENCH_LEDGER_WARMUP', 1),
  historyRequests: num('BENCH_HISTORY_REQUESTS', 200),
  historyMaxSeconds: num('BENCH_HISTORY_MAX_SECONDS', 15),
  stormSeconds: num('BENCH_STORM_SECONDS', 60),
  stormClients: num('BENCH_STORM_CLIENTS', 16),
  stormAccounts: num('BENCH_STORM_ACCOUNTS', 8),
};

/**
 * Starts PostgreSQL in a fresh temp dir and loads the ledger (the worker prints each step);
 * then the built server on that database, with a known JWT secret so tokens can be issued.
 */
export async function startLedger() {
  // Under the system temp dir, mode 755: as root, PostgreSQL runs as `postgres`.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-ledger-'));
  chmodSync(dir, 0o755);
  onCleanup(removeDataDir(dir));
  const worker = startWorker('bench/ledger-worker.ts', 'ledger');
  const setup = await worker.call('setup', { dir, rows: LEDGER.rows });

  const { secret, base, server } = await startServerOn(setup.url, dir, 'ledger-server.log');
  const tokens = await worker.call('tokens', { secret });
  const ids = await worker.call('viewerIds');
  const accounts = await worker.call('accounts');
  return { dir, worker, setup, server, base, tokens, ids, accounts };
}

function percentiles(samples) {
  const s = Float64Array.from(samples).sort();
  const at = (p) => s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))];
  return { p50: at(50), p95: at(95), p99: at(99) };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** A GET on the one keep-alive connection (node:http: less client overhead than fetch). */
function get(url, headers) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * `n` sequential GETs after 20 unmeasured ones, on the one keep-alive connection; a URL slower
 * than its budget stops after BENCH_HISTORY_MAX_SECONDS (at least 20 measured), so one bad
 * plan cannot stall the bench. Answers every latency and the last body.
 */
/**
 * Round-robin GETs of `urls` on one keep-alive connection, 20 untimed rounds first: each round
 * asks every URL once, so a burst of noise on the shared machine lands on all of them alike
 * (sequential phases let one phase take a burst the reference never sees). `n` timed rounds,
 * fewer when BENCH_HISTORY_MAX_SECONDS runs out.
 */
async function interleavedGets(urls, headers, n) {
  const lat = urls.map(() => []);
  const bodies = urls.map(() => '');
  const end = Date.now() + LEDGER.historyMaxSeconds * 1000;
  for (let i = -20; i < n && (i < 20 || Date.now() < end); i++) {
    for (const [k, url] of urls.entries()) {
      const t = performance.now();
      const res = await get(url, headers);
      if (i >= 0) lat[k].push(performance.now() - t);
      bodies[k] = res.body.toString('utf8');
      if (res.status !== 200) {
        throw new Error(`GET ${url}: ${res.status} ${bodies[k].slice(0, 200)}`);
      }
    }
  }
  return urls.map((_, k) => {
    const body = bodies[k];
    const page = JSON.parse(body);
    return {
      ...percentiles(lat[k]),
      n: lat[k].length,
      bytes: Buffer.byteLength(body),
      rows: Array.isArray(page.transactions) ? page.transactions.length : 1,
      page,
    };
  });
}

/**
 * Credit ledger history: first pages and pages about 1M entries deep (cursor = newest id − 1M), as
 * Admin (all entries, then one credit type), as a Reseller and as a Sub-Reseller (their viewer
 * rows: about 1/20 and 1/80 of the entries). The reference for their p95 is a one-row authenticated
 * read, the viewer's own profile, on the same connection with the same token, asked in turn with
 * the pages (profile, first page, page 2, deep page, and again), the same number of times.
 */
export async function measureHistory(ledger, creditType) {
  const { base, tokens, ids, setup } = ledger;
  // About 1M deep (a third of the ledger when BENCH_LEDGER_ROWS is made small).
  const max = BigInt(setup.maxId);
  const depth = max / 3n < 1_000_000n ? max / 3n : 1_000_000n;
  const cursor = String(max - depth);
  const cases = [
    { who: 'Admin', token: tokens.admin, self: ids.admin, query: {} },
    { who: 'Admin', token: tokens.admin, self: ids.admin, query: { creditType } },
    { who: 'Reseller', token: tokens.reseller, self: ids.reseller, query: {} },
    { who: 'Sub-Reseller', token: tokens.sub, self: ids.sub, query: {} },
  ];
  const out = [];
  for (const c of cases) {
    const headers = { authorization: `Bearer ${c.token}` };
    const url = (q) => `${base}/api/credits/history?${new URLSearchParams(q)}`;
    const profileUrl = `${base}/api/users/profile/${c.self}`;
    // Page 2 has no filter lists: the like-for-like reference for a deep page.
    const firstPage = JSON.parse((await get(url(c.query), headers)).body.toString('utf8'));
    const next = { ...c.query, cursor: firstPage.nextCursor };
    const [profile, first, second, deep] = await interleavedGets(
      [profileUrl, url(c.query), url(next), url({ ...c.query, cursor })],
      headers,
      LEDGER.historyRequests,
    );
    const top = deep.page.transactions[0]?.id;
    if (top !== undefined && BigInt(top) >= BigInt(cursor)) {
      throw new Error(`the page below cursor ${cursor} starts at id ${top}`);
    }
    out.push({ ...c, first, second, deep, profile: { ...profile, page: undefined }, cursor });
  }
  return out;
}

/** Ledger debits through HTTP: Admin burns 1 credit from a random account per request. */
export async function httpDebits(ledger) {
  const { base, tokens, accounts } = ledger;
  const result = await autocannon({
    url: `${base}/api/credits`,
    connections: LEDGER.clients,
    duration: LEDGER.seconds,
    pipelining: 1,
    warmup: { connections: LEDGER.clients, duration: LEDGER.warmup },
    requests: [
      {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' },
        setupRequest: (req) => {
          const a = accounts[Math.floor(Math.random() * accounts.length)];
          const body = {
            to: a.email,
            creditType: a.creditType,
            count: 1,
            rate: 0,
            type: 'Removed',
          };
          return { ...req, body: JSON.stringify(body) };
        },
      },
    ],
  });
  return {
    rate: result['2xx'] / LEDGER.seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

const INSUFFICIENT = 'Insufficient credits for this message type.';

/**
 * Ledger overdraw: `clients` loops POST debits of 1-100 credits from a few accounts for `seconds`,
 * asking about 10x what they hold, each under its own Idempotency-Key (also its reason, so the
 * entries can be matched to requests). 2% of first attempts are cut off by the client after
 * 0-4 ms and retried with the same key, as a client that lost its connection would; the server
 * must then replay, never debit twice. Afterwards the worker checks the whole ledger.
 */
export async function storm(ledger, expectedRate) {
  const { base, tokens, worker } = ledger;
  const seconds = LEDGER.stormSeconds;
  const mean = 50.5;
  // Asked ≈ requests × mean amount; hold a tenth of it. The storm's 16 clients send about as
  // many requests a second as the HTTP debit run committed (1172/s against 1237/s here): a
  // refusal costs the server about what a debit does.
  const total = Math.max(1000, Math.round((expectedRate * seconds * mean) / 10));
  const prep = await worker.call('stormPrepare', { accounts: LEDGER.stormAccounts, total });
  const c = {
    requests: 0,
    asked: 0,
    committed: 0,
    committedAmount: 0,
    rejected: 0,
    replayed: 0,
    cut: 0,
    retries: 0,
    inProgress: 0,
    other: {},
    errors: 0,
  };
  const keys = [];
  const lat = [];
  const headers = { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' };
  const end = Date.now() + seconds * 1000;
  const client = async (k) => {
    for (let seq = 0; Date.now() < end; seq++) {
      const a = prep.accounts[Math.floor(Math.random() * prep.accounts.length)];
      const count = 1 + Math.floor(Math.random() * 100);
      const key = `storm-${k}-${seq}`;
      const body = JSON.stringify({
        to: a.email,
        creditType: a.creditType,
        count,
        rate: 0,
        type: 'Removed',
        reason: key,
      });
      c.requests++;
      c.asked += count;
      const t = performance.now();
      for (let attempt = 0; ; attempt++) {
        if (attempt > 50) {
          c.errors++;
          break;
        }
        const cut = attempt === 0 && Math.random() < 0.02;
        let res;
        let reply;
        try {
          res = await fetch(`${base}/api/credits`, {
            method: 'POST',
            headers: { ...headers, 'idempotency-key': key },
            body,
            signal: cut ? AbortSignal.timeout(Math.floor(Math.random() * 5)) : undefined,
          });
          reply = await res.json();
        } catch {
          if (cut) c.cut++;
          c.retries++;
          continue;
        }
        if (res.status === 201) {
          c.committed++;
          c.committedAmount += count;
          keys.push(key);
          if (res.headers.get('idempotent-replayed') === 'true') c.replayed++;
        } else if (res.status === 409 && reply.message === INSUFFICIENT) {
          c.rejected++;
        } else if (res.status === 409) {
          // The first attempt still holds the key: ask again shortly.
          c.inProgress++;
          await sleep(20);
          continue;
        } else {
          c.other[res.status] = (c.other[res.status] ?? 0) + 1;
        }
        break;
      }
      lat.push(performance.now() - t);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: LEDGER.stormClients }, (_, k) => client(k)));
  const elapsed = (performance.now() - t0) / 1000;
  const check = await worker.call('stormCheck', {
    keys,
    maxId: prep.maxId,
    accounts: prep.accounts,
  });
  return { prep, counts: c, elapsed, latency: percentiles(lat), check };
}
