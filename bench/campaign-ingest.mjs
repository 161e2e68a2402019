// Campaign intake (docs/performance.md): a 1,000,000-recipient campaign accepted over HTTP, from
// request start to the 201 (after COMMIT), beside a raw COPY of the same rows into a table of the
// same shape and indexes without a foreign key, on the same database; the server's peak RSS; and
// another endpoint's latency while it runs.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { startHerald } from './http.mjs';
import { sleep } from './lib.mjs';
import { hammer, median, window } from './probe.mjs';

const num = (name, fallback) => Number(process.env[name] ?? fallback);

export const INGEST = {
  recipients: num('BENCH_INGEST_RECIPIENTS', 1_000_000),
  runs: num('BENCH_INGEST_RUNS', 3),
  /** Concurrent keep-alive clients on the other endpoint. */
  probeClients: num('BENCH_INGEST_PROBE_CLIENTS', 4),
  idleSeconds: num('BENCH_INGEST_IDLE_SECONDS', 3),
};

const CREDIT_TYPE = 'Normal Message - domestic';

/**
 * `n` distinct 12-digit numbers ("91" + 10 digits), ascending, comma-joined: what the web
 * form sends after its parser sorted and deduped the list (docs/performance.md, recipient parsing).
 */
function numbers(n) {
  const out = new Array(n);
  let v = 910_000_000_000;
  for (let i = 0; i < n; i++) {
    v += 1 + Math.floor(Math.random() * 50);
    out[i] = String(v);
  }
  return out;
}

/** A multipart body; `files` parts carry a filename (streamed by the server as files). */
function multipartBody(fields, files = {}) {
  const boundary = `----herald-bench-${randomUUID()}`;
  const parts = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
      Buffer.from(value),
      Buffer.from('\r\n'),
    );
  }
  for (const [name, value] of Object.entries(files)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      Buffer.from(value),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/** The embedded PostgreSQL the server started: port from postmaster.pid, password beside it. */
function databaseUrl(dataDir) {
  const pid = readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
  const password = readFileSync(path.join(dataDir, 'postgres.secret'), 'utf8').trim();
  return `postgres://herald:${encodeURIComponent(password)}@127.0.0.1:${pid[3].trim()}/herald`;
}

/** VmHWM (peak resident set) and VmRSS of a process, in bytes. */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { hwm: kb('VmHWM') * 1024, rss: kb('VmRSS') * 1024 };
}

async function api(base, token, method, url, body) {
  const res = await fetch(base + url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** A User holding enough credits for every run, logged in. */
async function prepareUser(base, adminToken, credits) {
  const email = `bench-ingest-${randomUUID().slice(0, 8)}@herald.test`;
  const password = randomBytes(12).toString('base64url');
  await api(base, adminToken, 'POST', '/api/users', {
    name: 'Bench Ingest',
    email,
    password,
    role: 'User',
  });
  await api(base, adminToken, 'POST', '/api/credits', {
    to: email,
    creditType: CREDIT_TYPE,
    count: credits,
    rate: 0.01,
    type: 'Added',
  });
  const login = await api(base, '', 'POST', '/api/login', { email, password });
  return { email, token: login.token, id: login.user.id };
}

/**
 * The reference table: campaign_recipients' columns, primary key and indexes (LIKE never copies
 * a foreign key). `withForeignKey` adds the per-row check to campaigns the design leaves out.
 */
const REFERENCE = 'bench_recipients_reference';
const WITH_FOREIGN_KEY = 'bench_recipients_with_fk';

async function createReferenceTables(db) {
  await db.query(`DROP TABLE IF EXISTS ${REFERENCE}, ${WITH_FOREIGN_KEY}`);
  await db.query(`CREATE TABLE ${REFERENCE} (LIKE campaign_recipients INCLUDING ALL)`);
  await db.query(
    `CREATE TABLE ${WITH_FOREIGN_KEY} (LIKE campaign_recipients INCLUDING ALL,
       FOREIGN KEY (campaign_id) REFERENCES campaigns (id) ON DELETE CASCADE)`,
  );
}

/** The foreign keys of `table`, by name: the shapes compared must be what they claim. */
async function foreignKeys(db, table) {
  const { rows } = await db.query(
    `SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f'`,
    [table],
  );
  return rows.map((r) => r.conname);
}

/** Every side starts alike: no recipient rows, a fresh checkpoint. */
async function reset(db) {
  await db.query(`TRUNCATE campaign_recipients, ${REFERENCE}, ${WITH_FOREIGN_KEY}`);
  await db.query('CHECKPOINT');
}

/** The reference: BEGIN, a campaign row, COPY of the same rows (text format), COMMIT. */
async function rawCopy(db, userId, phones, table = REFERENCE) {
  const { rows } = await db.query(
    `INSERT INTO campaigns (user_id, created_by, credit_type, message, recipient_count, charged_count)
     VALUES ($1, $1, $2, 'reference', $3, 0) RETURNING id`,
    [userId, CREDIT_TYPE, phones.length],
  );
  const id = rows[0].id;
  // Built before the clock starts: the reference measures PostgreSQL, not string building.
  const data = Buffer.from(phones.map((p) => `${id}\t${p}\n`).join(''), 'latin1');
  const chunks = [];
  for (let at = 0; at < data.length; at += 256 * 1024)
    chunks.push(data.subarray(at, at + 256 * 1024));
  const t0 = performance.now();
  await db.query('BEGIN');
  const stream = db.query(copyFrom(`COPY ${table} (campaign_id, phone) FROM STDIN`));
  await pipeline(Readable.from(chunks), stream);
  await db.query('COMMIT');
  const ms = performance.now() - t0;
  if (stream.rowCount !== phones.length) throw new Error(`reference copied ${stream.rowCount}`);
  return ms;
}

/** Lets VmHWM restart from the current RSS (Linux: "5" into clear_refs), so the peak is the ingest's. */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** One POST of the prepared multipart body; milliseconds from request start to the 201. */
async function postCampaign(base, auth, body, type) {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/campaigns`, {
    method: 'POST',
    headers: { ...auth, 'content-type': type },
    body,
  });
  const reply = await res.text();
  const t1 = performance.now();
  if (res.status !== 201) {
    throw new Error(`POST /api/campaigns: ${res.status} ${reply.slice(0, 300)}`);
  }
  const count = JSON.parse(reply).campaign.recipientCount;
  if (count !== INGEST.recipients) throw new Error(`stored ${count} recipients`);
  return { t0, t1, ms: t1 - t0 };
}

/**
 * Starts the built server on a fresh data dir. Timed runs: a raw COPY reference, then the
 * campaign over HTTP, alternately, each from an empty table after a CHECKPOINT, nothing else
 * running; medians over the runs. Then one more ingest while GET /api/session is hammered,
 * beside the same hammering with the server idle.
 */
export async function measureIngest(log = console.log) {
  const herald = await startHerald('');
  const { base } = herald;
  const pid = herald.server.child.pid;
  const db = new pg.Client({ connectionString: databaseUrl(herald.dataDir) });
  await db.connect();
  try {
    const user = await prepareUser(
      base,
      herald.login.token,
      INGEST.recipients * (INGEST.runs + 3) + 10_000,
    );
    const phones = numbers(INGEST.recipients);
    const { body, type } = multipartBody({
      creditType: CREDIT_TYPE,
      message: 'Bench: one million recipients',
      to: phones.join(','),
    });
    log(
      `payload: ${INGEST.recipients.toLocaleString('en-US')} numbers, multipart ${(body.length / 1e6).toFixed(1)} MB; server ${base}, pid ${pid}`,
    );
    const auth = { authorization: `Bearer ${user.token}` };
    // A first small campaign warms the route up (JIT, pool connections).
    const warm = multipartBody({
      creditType: CREDIT_TYPE,
      message: 'warm',
      to: phones.slice(0, 1000).join(','),
    });
    await fetch(`${base}/api/campaigns`, {
      method: 'POST',
      headers: { ...auth, 'content-type': warm.type },
      body: warm.body,
    }).then((r) => r.text());

    await createReferenceTables(db);
    const keys = {
      ours: await foreignKeys(db, 'campaign_recipients'),
      reference: await foreignKeys(db, REFERENCE),
      withForeignKey: await foreignKeys(db, WITH_FOREIGN_KEY),
    };
    log(
      `foreign keys: campaign_recipients [${keys.ours.join(', ')}], reference ${REFERENCE} [${keys.reference.join(', ')}], ${WITH_FOREIGN_KEY} [${keys.withForeignKey.join(', ')}]`,
    );

    const before = memory(pid);
    const peakReset = resetPeak(pid);
    const runs = [];
    for (let r = 0; r < INGEST.runs; r++) {
      await reset(db);
      const ref = await rawCopy(db, user.id, phones);
      await reset(db);
      const { ms } = await postCampaign(base, auth, body, type);
      runs.push({ ms, ref, ratio: ms / ref, load: os.loadavg()[0] });
      log(
        `run ${r + 1}: raw COPY without a foreign key ${(ref / 1000).toFixed(2)} s, ingest over HTTP ${(ms / 1000).toFixed(2)} s (${(ms / ref).toFixed(2)}x); load average ${os.loadavg()[0].toFixed(1)}`,
      );
    }
    const after = memory(pid);

    // Info: what a foreign key to campaigns would cost (a lookup per row), the reason the
    // schema has none.
    await reset(db);
    const withFk = await rawCopy(db, user.id, phones, WITH_FOREIGN_KEY);
    log(
      `info: raw COPY into the same shape with a foreign key to campaigns: ${(withFk / 1000).toFixed(2)} s`,
    );

    // Info: the same list as a file part, which the server scans as it streams in.
    const asFile = multipartBody(
      { creditType: CREDIT_TYPE, message: 'Bench: one million recipients (file part)' },
      { to: phones.join(',') },
    );
    await reset(db);
    const filePart = await postCampaign(base, auth, asFile.body, asFile.type);
    log(`info: \`to\` as a streamed file part: ingest ${(filePart.ms / 1000).toFixed(2)} s`);

    // The other endpoint: idle, then during one more ingest.
    const probeUrl = `${base}/api/session`;
    const idleProbe = hammer(probeUrl, auth, INGEST.probeClients);
    const idleFrom = performance.now();
    await sleep(INGEST.idleSeconds * 1000);
    const idle = window((await idleProbe.stop()).samples, idleFrom + 500, performance.now());
    await reset(db);
    const probe = hammer(probeUrl, auth, INGEST.probeClients);
    await sleep(500);
    const loaded = await postCampaign(base, auth, body, type);
    const { samples, errors } = await probe.stop();
    const during = window(samples, loaded.t0, loaded.t1);
    log(
      `GET /api/session on ${INGEST.probeClients} connections: idle ${idle.rps.toFixed(0)}/s, p99 ${idle.p99.toFixed(1)} ms; during an ingest (${(loaded.ms / 1000).toFixed(2)} s under this load) ${during.rps.toFixed(0)}/s, p50 ${during.p50.toFixed(1)} ms, p99 ${during.p99.toFixed(1)} ms, worst ${during.max.toFixed(1)} ms${errors ? `, ${errors} errors` : ''}`,
    );
    await db.query(`DROP TABLE ${REFERENCE}, ${WITH_FOREIGN_KEY}`);
    return {
      settings: INGEST,
      payloadBytes: body.length,
      runs,
      ingest: median(runs.map((r) => r.ms)),
      reference: median(runs.map((r) => r.ref)),
      pairRatio: median(runs.map((r) => r.ratio)),
      idle,
      during,
      loadedIngestMs: loaded.ms,
      filePartMs: filePart.ms,
      withForeignKeyMs: withFk,
      foreignKeys: keys,
      memory: { before, after, peakReset },
    };
  } finally {
    await db.end().catch(() => {});
    await herald.server.stop();
  }
}
