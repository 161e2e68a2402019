// Analytics (docs/performance.md, analytics), the reads over a big ledger: bench/ledger.mjs seeds
// 3,000,000 entries over 1,000 users and ~2 years (its worker), then the five /api/analytics calls
// are timed as the Admin (everything) and as a Reseller (its subtree, 1/20 of the entries), for the
// default range (30 days) and all time. Reference: the caller's own profile (a one-row
// authenticated read), asked in turn with them on the same keep-alive connection, so noise lands on
// all alike.
import http from 'node:http';

const num = (name, fallback) => Number(process.env[name] ?? fallback);

export const ANALYTICS = {
  requests: num('BENCH_ANALYTICS_REQUESTS', 100),
  maxSeconds: num('BENCH_ANALYTICS_MAX_SECONDS', 60),
};

const PATHS = ['', '/credits-trend', '/credit-types', '/campaign-types', '/top-users'];

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

function percentiles(samples) {
  const s = Float64Array.from(samples).sort();
  const at = (p) => s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))];
  return { p50: at(50), p95: at(95), p99: at(99), n: s.length };
}

/** Round-robin GETs of `urls` (20 untimed rounds first); answers latencies and last bodies. */
async function interleaved(urls, headers) {
  const lat = urls.map(() => []);
  const bodies = urls.map(() => '');
  const end = Date.now() + ANALYTICS.maxSeconds * 1000;
  for (let i = -20; i < ANALYTICS.requests && (i < 20 || Date.now() < end); i++) {
    for (const [k, url] of urls.entries()) {
      const t = performance.now();
      const res = await get(url, headers);
      if (i >= 0) lat[k].push(performance.now() - t);
      bodies[k] = res.body.toString('utf8');
      if (res.status !== 200)
        throw new Error(`GET ${url}: ${res.status} ${bodies[k].slice(0, 200)}`);
    }
  }
  return urls.map((_, k) => ({ ...percentiles(lat[k]), body: JSON.parse(bodies[k]) }));
}

/** `ledger`: what startLedger() answered. One result per (role, range) with its five calls. */
export async function measureAnalytics(ledger) {
  const { base, tokens, ids } = ledger;
  const out = [];
  for (const who of [
    { role: 'Admin', token: tokens.admin, self: ids.admin },
    { role: 'Reseller', token: tokens.reseller, self: ids.reseller },
  ]) {
    for (const range of ['30', 'all']) {
      const headers = { authorization: `Bearer ${who.token}` };
      const urls = [
        `${base}/api/users/profile/${who.self}`,
        ...PATHS.map((p) => `${base}/api/analytics${p}?range=${range}`),
      ];
      const [profile, ...calls] = await interleaved(urls, headers);
      out.push({
        role: who.role,
        range,
        profile: { ...profile, body: undefined },
        calls: calls.map((c, k) => ({
          path: `/api/analytics${PATHS[k]}`,
          ...c,
          rows: Array.isArray(c.body) ? c.body.length : 1,
          summary: Array.isArray(c.body) ? undefined : c.body,
          body: undefined,
        })),
      });
    }
  }
  return out;
}
