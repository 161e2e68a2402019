// Issue 13: the full backup (.xlsx, one sheet per table) of the ledger section's 3,000,000
// entries plus 1,000,000 campaign recipients, through the built server: POST
// /api/backup/generate-download, its progress polled, then the file streamed back. Measured: the
// server's RSS growth while it builds and sends (sampled every 20 ms from /proc), and its rate
// against a raw `COPY ... TO STDOUT` of the same allow-listed tables on the same database, run
// just before it (the machine is shared: compare within one run).
import http from 'node:http';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { sleep } from './lib.mjs';

const num = (name, fallback) => Number(process.env[name] ?? fallback);

export const BACKUP = {
  recipients: num('BENCH_BACKUP_RECIPIENTS', 1_000_000),
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
    return (performance.now() - t) / 1000;
  } finally {
    await c.end();
  }
}

/** Raw COPY of every backed-up table, in text format: rows, bytes and seconds. */
async function rawCopy(url) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    let bytes = 0;
    const t = performance.now();
    for (const table of TABLES) {
      const s = c.query(copyStreams.to(`COPY ${table} TO STDOUT`));
      for await (const chunk of s) bytes += chunk.length;
    }
    const seconds = (performance.now() - t) / 1000;
    const counts = await c.query(
      TABLES.map((tb) => `SELECT count(*)::float8 AS n FROM ${tb}`).join(' UNION ALL '),
    );
    return { seconds, bytes, rows: counts.rows.reduce((s, r) => s + r.n, 0) };
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

/** The backup through the server, with its RSS sampled throughout. */
async function serverBackup(base, token, pid) {
  const rssBefore = rssOf(pid);
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
      await sleep(200);
      const p = await request('GET', `${base}${progressUrl}`, token);
      progress = JSON.parse(p.body);
    } while (progress.state === 'building');
    if (progress.state !== 'ready') throw new Error(`backup build ${progress.state}`);
    const built = (performance.now() - t) / 1000;
    const file = await request('GET', `${base}${downloadUrl}`, token, () => {});
    if (file.status !== 200) throw new Error(`download: ${file.status}`);
    return {
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

/** Runs on a started ledger (bench/ledger.mjs startLedger): recipients, COPY, then the backup. */
export async function measureBackup(ledger) {
  const loadSeconds = await loadRecipients(ledger.setup.url, BACKUP.recipients);
  const copy = await rawCopy(ledger.setup.url);
  const backup = await serverBackup(ledger.base, ledger.tokens.admin, ledger.server.child.pid);
  return { loadSeconds, copy, backup };
}
