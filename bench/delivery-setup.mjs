// The delivery bench's moving parts: the database worker (its PostgreSQL outlives an
// app server the bench kills), the built app server, restartable on the same port so the
// simulator's status webhooks find it again, the standalone simulator in its own process (its
// CPU apart from the app's), and the API calls that fund, create and approve a campaign and set
// the sender's rate.
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { removeDataDir } from './http.mjs';
import {
  freePort,
  onCleanup,
  outRoot,
  root,
  startNode,
  startServerOn,
  startWorker,
  waitReady,
} from './lib.mjs';

export const CREDIT_TYPE = 'Normal Message - domestic';
const MAX_CREDIT_COUNT = 10_000_000;

/**
 * PostgreSQL (worker) and the app, whose provider is the external simulator at a port chosen
 * now (the simulator starts later, per figure, with its cap). Both share the webhook secret.
 */
export async function startStack({ concurrency }) {
  // Under the system temp dir, mode 755: as root, PostgreSQL runs as `postgres`.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-delivery-'));
  chmodSync(dir, 0o755);
  onCleanup(removeDataDir(dir));
  const worker = startWorker('bench/delivery-worker.ts', 'delivery');
  const setup = await worker.call('setup', { dir });
  const db = new pg.Pool({ connectionString: setup.url, max: 2 });
  onCleanup(() => db.end());
  const secret = randomBytes(24).toString('hex');
  const simPort = await freePort();
  const appPort = await freePort();
  const stack = {
    dir,
    worker,
    setup,
    db,
    secret,
    simUrl: `http://127.0.0.1:${simPort}`,
    simPort,
    appPort,
    env: {
      DELIVERY_DISPATCH: 'on',
      DELIVERY_CONCURRENCY: String(concurrency),
      DELIVERY_WEBHOOK_SECRET: secret,
      // The customer's endpoint of bench/delivery-endpoint.mjs listens on loopback.
      WEBHOOK_ALLOW_PRIVATE: 'true',
      SIMULATOR_URL: `http://127.0.0.1:${simPort}`,
      // The base of the callback URLs the provider answers name: the WhatsApp fake posts there.
      PUBLIC_URL: `http://127.0.0.1:${appPort}`,
    },
    app: undefined,
    tokens: undefined,
    sim: undefined,
    starts: 0,
  };
  await startApp(stack);
  await quietHoursAwayFromNow(stack);
  return stack;
}

/**
 * The figures must not depend on the hour the bench runs at, yet the claim of a campaign with
 * quiet hours is the one to measure (docs/delivery.md, Quiet hours): the Admin's window, which
 * the bench's campaigns inherit, becomes one minute twelve hours from now in India (the bench's
 * numbers have no country code), so every zone stays open for the run.
 */
async function quietHoursAwayFromNow(stack) {
  const now = new Date();
  const away = (now.getUTCHours() * 60 + now.getUTCMinutes() + 330 + 720) % 1440;
  const hhmm = (m) =>
    `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  await api(stack, 'admin', 'PUT', '/api/settings/quiet-hours', {
    start: hhmm(away),
    end: hhmm((away + 1) % 1440),
  });
}

/** (Re)starts the app on the stack's port and database; new JWT secret, so new tokens. */
export async function startApp(stack) {
  stack.starts += 1;
  stack.app = await startServerOn(
    stack.setup.url,
    stack.dir,
    `delivery-server-${stack.starts}.log`,
    { env: stack.env, port: stack.appPort },
  );
  stack.tokens = await stack.worker.call('tokens', { secret: stack.app.secret });
  return stack.app;
}

/** kill -9 of the app server; resolves once it is gone. */
export async function killApp(stack) {
  const { child } = stack.app.server;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/**
 * The standalone simulator with cap `rate`, on the stack's simulator port (a running one is
 * stopped first, so its counters start at 0). Built entry when the build has one, else tsx.
 */
export async function startSimulator(stack, rate) {
  await stack.sim?.stop();
  const dist = path.join(root, 'apps/server/dist/simulator-main.js');
  const built = existsSync(dist);
  const args = built ? [dist] : ['--import', 'tsx', 'apps/server/src/simulator-main.ts'];
  const proc = startNode(args, {
    logFile: path.join(outRoot, `delivery-simulator-${rate}.log`),
    graceMs: 5000,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      SIMULATOR_PORT: String(stack.simPort),
      SIMULATOR_RATE: String(rate),
      SIMULATOR_CALLBACK_URL: `http://127.0.0.1:${stack.appPort}/api/delivery/webhooks/simulator`,
      DELIVERY_WEBHOOK_SECRET: stack.secret,
    },
  });
  await waitReady(`${stack.simUrl}/v1/stats`, proc, 60_000);
  stack.sim = { ...proc, rate, entry: built ? 'dist/simulator-main.js' : 'src (tsx)' };
  return stack.sim;
}

/** The simulator's counters: accepted, duplicates, throttled, rejected, events pending/delivered. */
export async function simStats(stack) {
  const res = await fetch(`${stack.simUrl}/v1/stats`);
  if (!res.ok) throw new Error(`simulator GET /v1/stats: ${res.status}`);
  return res.json();
}

/** A JSON API call as `who` ('admin' or 'user'); throws on a non-2xx answer. */
export async function api(stack, who, method, url, body) {
  const res = await fetch(stack.app.base + url, {
    method,
    headers: {
      authorization: `Bearer ${stack.tokens[who]}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) {
    const err = new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
    err.status = res.status;
    throw err;
  }
  return text ? JSON.parse(text) : null;
}

/** The Admin mints `total` credits for the owner (API), at most MAX_CREDIT_COUNT an entry. */
export async function fund(stack, total) {
  for (let left = total; left > 0; left -= MAX_CREDIT_COUNT) {
    await api(stack, 'admin', 'POST', '/api/credits', {
      to: stack.setup.userEmail,
      creditType: CREDIT_TYPE,
      count: Math.min(left, MAX_CREDIT_COUNT),
      rate: 0.01,
      type: 'Added',
    });
  }
}

/**
 * The default sender's rate: the Admin route (GET/PUT /api/delivery/senders) when it answers,
 * else SQL on the senders row; daily limit off. Answers which way it went.
 */
export async function setSenderRate(stack, rate) {
  try {
    const senders = await api(stack, 'admin', 'GET', '/api/delivery/senders');
    const list = Array.isArray(senders) ? senders : (senders.senders ?? []);
    const sender = list.find((s) => s.isDefault) ?? list[0];
    if (!sender) throw new Error('no sender listed');
    await api(stack, 'admin', 'PUT', `/api/delivery/senders/${sender.id}`, {
      ratePerSecond: rate,
      dailyLimit: null,
    });
    return 'PUT /api/delivery/senders/:id';
  } catch (err) {
    const { rowCount } = await stack.db.query(
      `UPDATE senders SET rate_per_second = $1, daily_limit = NULL, updated_at = now()
       WHERE is_default`,
      [rate],
    );
    if (rowCount !== 1) throw new Error(`no default sender to set the rate of (${err.message})`);
    return `SQL (the route answered: ${err.message.slice(0, 80)})`;
  }
}

/**
 * Numbers the simulator's test rules leave alone (endings 0000, 1050, 1313 and 5000 misbehave on
 * purpose).
 */
const RULE_ENDINGS = new Set([0, 1050, 1313, 5000]);

/** `n` distinct 12-digit numbers from `from`, ascending, none with a rule ending. */
export function phones(n, from) {
  const out = new Array(n);
  let v = from;
  for (let i = 0; i < n; v++) {
    if (!RULE_ENDINGS.has(v % 10_000)) out[i++] = String(v);
  }
  return out;
}

function multipart(fields) {
  const boundary = `----herald-bench-${randomUUID()}`;
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/** POST /api/campaigns as the owner with these numbers; answers its id and stored count. */
export async function createCampaign(stack, numbers, message) {
  const { body, type } = multipart({
    creditType: CREDIT_TYPE,
    message,
    to: numbers.join(','),
  });
  const t = performance.now();
  const res = await fetch(`${stack.app.base}/api/campaigns`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.tokens.user}`, 'content-type': type },
    body,
  });
  const text = await res.text();
  if (res.status !== 201)
    throw new Error(`POST /api/campaigns: ${res.status} ${text.slice(0, 300)}`);
  const { campaign } = JSON.parse(text);
  return {
    id: campaign._id,
    count: campaign.recipientCount,
    seconds: (performance.now() - t) / 1000,
  };
}

/** The Admin's Change Status. */
export function setStatus(stack, id, status) {
  return api(stack, 'admin', 'PUT', `/api/campaigns/status/${id}`, { status });
}

/**
 * A campaign's status, its recipients counted by delivery state (unclaimed as 'unsent'), and
 * how many were claimed more than once (retried, or re-claimed after a crash's lease).
 */
export async function campaignStates(stack, id) {
  const status = await stack.db.query(
    `SELECT status, (SELECT count(*)::int FROM campaign_recipients
                      WHERE campaign_id = $1 AND attempts > 1) AS reclaimed
       FROM campaigns WHERE id = $1`,
    [id],
  );
  const { rows } = await stack.db.query(
    `SELECT coalesce(state, 'unsent') AS state, count(*)::int AS n
       FROM campaign_recipients WHERE campaign_id = $1 GROUP BY 1 ORDER BY 1`,
    [id],
  );
  return {
    status: status.rows[0]?.status,
    reclaimed: status.rows[0]?.reclaimed,
    states: Object.fromEntries(rows.map((r) => [r.state, r.n])),
  };
}
