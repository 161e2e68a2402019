// A login storm in a process of its own, so its CPU and sockets are not the probe's: reads its
// settings as JSON from argv[2], sends wrong logins at a fixed rate for a number of seconds and
// prints how they were answered as one JSON line.
//
// Each login names an email of its own and leaves from a loopback address of its own
// (127.0.1.x: Linux routes all of 127/8 to lo), so the per-account and per-IP login limits see
// many accounts and many clients, as in a distributed storm, and the logins reach the password
// hasher instead of stopping at a 429. No proxy header is needed, so the server trusts none.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const { base, rate, seconds, maxInFlight, addresses } = JSON.parse(process.argv[2]);
const url = new URL('/api/login', base);
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

const statuses = {};
const retryAfter = [];
let sent = 0;
let inFlight = 0;
let errors = 0;
let skipped = 0;

function login(n) {
  const body = JSON.stringify({ email: `storm-${n}@herald.test`, password: 'not-the-password' });
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        localAddress: `127.0.1.${1 + (n % addresses)}`,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        const after = Number(res.headers['retry-after']);
        if (Number.isFinite(after)) retryAfter.push(after);
        res.resume();
        res.on('end', resolve);
      },
    );
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end(body);
  });
}

// Open loop: a login every 1/rate s whatever the answers, as an attacker sends them; past
// `maxInFlight` unanswered ones a tick is skipped (and counted) rather than piling up sockets.
const started = performance.now();
const pending = [];
await new Promise((resolve) => {
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    while (sent + skipped < due) {
      if (inFlight >= maxInFlight) {
        skipped++;
        continue;
      }
      inFlight++;
      pending.push(login(sent++).finally(() => inFlight--));
    }
    if (performance.now() - started >= seconds * 1000) {
      clearInterval(timer);
      resolve();
    }
  }, 5);
});
await Promise.all(pending);
agent.destroy();
process.stdout.write(
  JSON.stringify({
    sent,
    skipped,
    errors,
    statuses,
    retryAfterMax: retryAfter.length ? Math.max(...retryAfter) : undefined,
    seconds: (performance.now() - started) / 1000,
  }) + '\n',
);
