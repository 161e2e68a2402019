// The alerts bell (docs/performance.md, alerts bell): with 1,000,000 notifications over 10,000
// users, the p95 of the unread count and of the bell's list against a one-row authenticated read
// (the user's own profile) asked in turn on the same connection; then 1,000 open SSE streams on one
// instance, the server's RSS growth per stream and how fast one broadcast NOTIFY reaches all of
// them.
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { removeDataDir } from './http.mjs';
import { onCleanup, sleep, startServerOn, startWorker } from './lib.mjs';

const num = (name, fallback) => Number(process.env[name] ?? fallback);

export const ALERTS = {
  users: num('BENCH_ALERTS_USERS', 10_000),
  rows: num('BENCH_ALERTS_ROWS', 1_000_000),
  /** One in this many of each user's notifications is unread. */
  unreadEvery: num('BENCH_ALERTS_UNREAD_EVERY', 10),
  requests: num('BENCH_ALERTS_REQUESTS', 300),
  streams: num('BENCH_ALERTS_STREAMS', 1000),
};

function percentiles(samples) {
  const s = Float64Array.from(samples).sort();
  const at = (p) => s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))];
  return { p50: at(50), p95: at(95), p99: at(99), max: s[s.length - 1] };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
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

/** Round-robin GETs of `urls` on one keep-alive connection, 20 untimed rounds first. */
async function interleaved(urls, headers, n) {
  const lat = urls.map(() => []);
  const bodies = urls.map(() => '');
  for (let i = -20; i < n; i++) {
    for (const [k, url] of urls.entries()) {
      const t = performance.now();
      const res = await get(url, headers);
      if (i >= 0) lat[k].push(performance.now() - t);
      bodies[k] = res.body.toString('utf8');
      if (res.status !== 200)
        throw new Error(`GET ${url}: ${res.status} ${bodies[k].slice(0, 200)}`);
    }
  }
  return urls.map((_, k) => ({
    ...percentiles(lat[k]),
    n: lat[k].length,
    body: JSON.parse(bodies[k]),
  }));
}

/** The server's resident memory in bytes (Linux /proc). */
function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

/** Opens one SSE stream; resolves once its first bytes arrived, with a promise of its first alert. */
function openStream(base, token) {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${base}/api/live`,
      { agent: false, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`GET /api/live: ${res.statusCode}`));
        }
        res.setEncoding('utf8');
        let text = '';
        let opened = false;
        let alerted;
        const firstAlert = new Promise((r) => (alerted = r));
        res.on('data', (chunk) => {
          text += chunk;
          if (!opened) {
            opened = true;
            resolve({ req, firstAlert });
          }
          if (text.includes('event: alert')) alerted(performance.now());
        });
        res.on('error', () => {});
      },
    );
    req.on('error', reject);
  });
}

export async function measureAlerts() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-alerts-'));
  chmodSync(dir, 0o755);
  onCleanup(removeDataDir(dir));
  const worker = startWorker('bench/alerts-worker.ts', 'alerts');
  try {
    const setup = await worker.call('setup', {
      dir,
      users: ALERTS.users,
      rows: ALERTS.rows,
      unreadEvery: ALERTS.unreadEvery,
    });
    const { secret, base, server } = await startServerOn(setup.url, dir, 'alerts-server.log');
    try {
      const tokens = await worker.call('tokens', { secret, count: ALERTS.streams });
      const probeUser = tokens[0];
      const headers = { authorization: `Bearer ${probeUser.token}` };
      const [profile, count, list] = await interleaved(
        [
          `${base}/api/users/profile/${probeUser.id}`,
          `${base}/api/notifications?unread=true&limit=1`,
          `${base}/api/notifications?unread=true`,
        ],
        headers,
        ALERTS.requests,
      );
      if (count.body.unreadCount !== setup.probe.unread) {
        throw new Error(`unread count ${count.body.unreadCount}, expected ${setup.probe.unread}`);
      }

      // 1,000 streams, one per user, each on its own connection.
      const pid = server.child.pid;
      await sleep(1000);
      const rssBefore = rssOf(pid);
      const streams = [];
      for (let i = 0; i < tokens.length; i += 50) {
        streams.push(
          ...(await Promise.all(tokens.slice(i, i + 50).map((t) => openStream(base, t.token)))),
        );
      }
      await sleep(2000);
      const rssAfter = rssOf(pid);
      const sent = performance.now();
      await worker.call('broadcast');
      const arrived = await Promise.all(streams.map((s) => s.firstAlert));
      const delivery = percentiles(arrived.map((t) => t - sent));
      for (const s of streams) s.req.destroy();
      return {
        setup,
        profile,
        count,
        list: { ...list, rows: list.body.notifications.length },
        streams: {
          count: streams.length,
          rssBefore,
          rssAfter,
          perStream: (rssAfter - rssBefore) / streams.length,
          delivery,
        },
      };
    } finally {
      await server.stop();
    }
  } finally {
    await worker.stop();
  }
}
