// Backup rate (docs/performance.md, backup rate): the full backup (.xlsx, one sheet per table) of
// the ledger section's 3,000,000 entries plus 1,000,000 campaign recipients, through the built
// server: POST /api/backup/generate-download, its progress polled, then the file streamed back.
// Measured: the server's RSS growth while it builds and sends (sampled every 20 ms from /proc), and
// its rate against a raw `COPY ... TO STDOUT` of the same allow-listed tables on the same database,
// run just before it (the machine is shared: compare within one run).
import http from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { sleep } from './lib.mjs';

const num = (name, fallback) => Number(process.env[name] ?? fallback);

export const BACKUP = {
  recipients: num('BENCH_BACKUP_RECIPIENTS', 1_000_000),
  /** Raw COPY then backup, this many times in turn: the figure is the median pair's. */
  pairs: num('BENCH_BACKUP_PAIRS', 3),
};

/** The tables a backup holds (apps/server/src/modules/backup/backup-tables.ts). */
const TABLES = [
  'users',
  'credit_balances',
  'credit_transactions',
  'senders',
  'campaigns',
  'campaign_recipients',
  'campaign_files',
  'campaign_report_entries',
  'notifications',
  'tickets',
  'ticket_replies',
  'ticket_attachments',
  'announcements',
  'announcement_targets',
  'announcement_seen',
];

/** CPU seconds (user + system, every thread) a process has used so far. */
function cpuOf(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/**
 * CPU seconds used so far by the PostgreSQL cluster: its postmaster's live child processes, and
 * those that ended (a backend whose connection closed: counted in the postmaster's cutime and
 * cstime once reaped).
 */
function clusterCpu(postmaster) {
  const own = readFileSync(`/proc/${postmaster}/stat`, 'utf8').split(') ')[1].split(' ');
  let sum = (Number(own[13]) + Number(own[14])) / 100;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ');
      if (Number(f[1]) === postmaster) sum += (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

/** The postmaster of the cluster at `url` (the parent of a backend). */
async function postmasterOf(url) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query('SELECT pg_backend_pid() AS pid');
    return Number(readFileSync(`/proc/${rows[0].pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  } finally {
    await c.end();
  }
}

function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** One campaign of the Admin with `n` recipients, written by the owner in SQL. */
async function loadRecipients(url, n) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const t = performance.now();
    const { rows } = await c.query(
      `INSERT INTO campaigns (user_id, created_by, credit_type, message, recipient_count, charged_count)
       SELECT id, id, 'Normal Message - domestic', 'bench', $1, 0 FROM users WHERE role = 'Admin'
       LIMIT 1 RETURNING id`,
      [n],
    );
    await c.query(
      `INSERT INTO campaign_recipients (campaign_id, phone)
       SELECT $1, (9000000000 + g)::text FROM generate_series(1, $2::int) g`,
      [rows[0].id, n],
    );
    await c.query('VACUUM ANALYZE campaign_recipients');
    // As the ledger's load ends: the new rows' pages are written out now, not by the
    // checkpointer while the COPY and the backup are measured.
    await c.query('CHECKPOINT');
    return (performance.now() - t) / 1000;
  } finally {
    await c.end();
  }
}

/**
 * Raw COPY of every backed-up table, in text format: rows, bytes and seconds; CPU seconds of
 * the cluster (its backend) and of this process (the client) meanwhile.
 */
async function rawCopy(url, postmaster) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    let bytes = 0;
    const pg0 = clusterCpu(postmaster);
    const me0 = process.cpuUsage();
    const t = performance.now();
    for (const table of TABLES) {
      const s = c.query(copyStreams.to(`COPY ${table} TO STDOUT`));
      for await (const chunk of s) bytes += chunk.length;
    }
    const seconds = (performance.now() - t) / 1000;
    const me = process.cpuUsage(me0);
    const cpu = { postgres: clusterCpu(postmaster) - pg0, client: (me.user + me.system) / 1e6 };
    const counts = await c.query(
      TABLES.map((tb) => `SELECT count(*)::float8 AS n FROM ${tb}`).join(' UNION ALL '),
    );
    return { seconds, bytes, rows: counts.rows.reduce((s, r) => s + r.n, 0), cpu };
  } finally {
    await c.end();
  }
}

function request(method, url, token, onData) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let bytes = 0;
        const chunks = [];
        res.on('data', (c) => {
          bytes += c.length;
          if (onData) onData(c.length);
          else chunks.push(c);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode, bytes, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * The backup through the server, with its RSS sampled throughout; CPU seconds of the server
 * (every thread) and of the cluster meanwhile.
 */
async function serverBackup(base, token, pid, postmaster) {
  const rssBefore = rssOf(pid);
  const server0 = cpuOf(pid);
  const pg0 = clusterCpu(postmaster);
  let peak = rssBefore;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, rssOf(pid));
      await sleep(20);
    }
  })();
  const t = performance.now();
  try {
    const start = await request('POST', `${base}/api/backup/generate-download`, token);
    if (start.status !== 200) throw new Error(`generate-download: ${start.status} ${start.body}`);
    const { downloadUrl, progressUrl } = JSON.parse(start.body);
    let progress;
    do {
      // Often: the time from the build's end to the next poll counts in the backup's seconds.
      await sleep(50);
      const p = await request('GET', `${base}${progressUrl}`, token);
      progress = JSON.parse(p.body);
    } while (progress.state === 'building');
    if (progress.state !== 'ready') throw new Error(`backup build ${progress.state}`);
    const built = (performance.now() - t) / 1000;
    const file = await request('GET', `${base}${downloadUrl}`, token, () => {});
    if (file.status !== 200) throw new Error(`download: ${file.status}`);
    const cpu = { server: cpuOf(pid) - server0, postgres: clusterCpu(postmaster) - pg0 };
    return {
      cpu,
      seconds: (performance.now() - t) / 1000,
      buildSeconds: built,
      rows: progress.rows,
      bytes: file.bytes,
      rssBefore,
      rssPeak: peak,
    };
  } finally {
    sampling = false;
    await sampler;
    peak = Math.max(peak, rssOf(pid));
  }
}

/**
 * Runs on a started ledger (bench/ledger.mjs startLedger): recipients, then a raw COPY and the
 * backup in turn, BACKUP.pairs times (the machine is shared: one pair can land on a busy moment).
 * Answers every pair, the median one by ratio, and the server's RSS growth over all of them
 * (from before the first to the highest peak).
 */
export async function measureBackup(ledger) {
  const loadSeconds = await loadRecipients(ledger.setup.url, BACKUP.recipients);
  const postmaster = await postmasterOf(ledger.setup.url);
  const pid = ledger.server.child.pid;
  const pairs = [];
  // The machine has few cores: what each side costs in CPU tells more than seconds alone.
  const s = (x) => `${x.toFixed(1)} s`;
  for (let i = 0; i < Math.max(1, BACKUP.pairs); i++) {
    const copy = await rawCopy(ledger.setup.url, postmaster);
    const backup = await serverBackup(ledger.base, ledger.tokens.admin, pid, postmaster);
    const ratio = backup.rows / backup.seconds / (copy.rows / copy.seconds);
    pairs.push({ copy, backup, ratio });
    console.log(
      `pair ${i + 1}: COPY ${s(copy.seconds)} (CPU ${s(copy.cpu.postgres)} PostgreSQL + ${s(copy.cpu.client)} client); backup ${s(backup.seconds)}, built in ${s(backup.buildSeconds)} (CPU ${s(backup.cpu.postgres)} PostgreSQL + ${s(backup.cpu.server)} server, all threads); ${ratio.toFixed(2)}x; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    );
  }
  const median = [...pairs].sort((a, b) => a.ratio - b.ratio)[Math.floor(pairs.length / 2)];
  const rssGrowth = Math.max(...pairs.map((p) => p.backup.rssPeak)) - pairs[0].backup.rssBefore;
  return { loadSeconds, copy: median.copy, backup: median.backup, pairs, rssGrowth };
}
