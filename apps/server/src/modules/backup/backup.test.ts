import * as XLSX from '@e965/xlsx';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupDownloadReply, BackupProgress, SavedBackupList } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { creditBody, postCredit } from '../credits/credits.test-fixtures.js';
import { file, png, postCampaign } from '../campaigns/campaigns.test-fixtures.js';
import { attachment, openTicket } from '../tickets/tickets.test-fixtures.js';
import { BACKUP_TABLES } from './backup-tables.js';
import { runScheduledBackup } from './scheduled-backup.js';
import { storedBytes, keysUnder } from '../../../test/storage-fixtures.js';
import { saveToServer } from './backup-save.test-fixtures.js';

/**
 * The full backup (docs/product.md, Backup and storage) read back with a real reader: one sheet
 * per allow-listed table holding every row, no secret column or table, formulas neutralised.
 */
let t: TestApp;
let admin = '';
let reseller = '';
let sub = '';
let user = '';
let userEmail = '';
let apiKeySecret = '';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  const r = await t.createUser(admin, { role: 'Reseller', name: '=HYPERLINK("http://x")' });
  reseller = r.token;
  sub = (await t.createUser(reseller, { role: 'Sub-Reseller', name: '@SUM(A1)' })).token;
  const u = await t.createUser(reseller, { role: 'User', name: '+cmd|calc' });
  user = u.token;
  userEmail = u.user.email;
  expect((await postCredit(t, admin, creditBody(userEmail, { count: 50 }))).statusCode).toBe(201);
  const camp = await postCampaign(
    t,
    user,
    { creditType: 'Normal Message - domestic', message: '-2+3', to: '9876543210, 9876543211' },
    [file('images', png(10, 10), 'pic.png')],
  );
  expect(camp.statusCode, camp.body).toBe(201);
  await openTicket(t, user, { subject: '=1+1' }, [attachment(Buffer.from('hello'), 'a.txt')]);
  // Secrets that must never be exported.
  await sql`INSERT INTO password_resets (user_id, otp_hash, expires_at)
    SELECT id, 'otp-hash-secret', now() + interval '1 hour' FROM users LIMIT 1`.execute(t.db);
  const key = await t.request({
    method: 'POST',
    url: '/api/api-keys',
    token: user,
    payload: { name: 'backup-key-name', kind: 'live' },
  });
  expect(key.statusCode, key.body).toBe(201);
  apiKeySecret = key.json<{ secret: string }>().secret;
});
afterAll(() => t.close());

async function generate(token: string): Promise<Buffer> {
  const res = await t.request({ method: 'POST', url: '/api/backup/generate-download', token });
  expect(res.statusCode, res.body).toBe(200);
  const { downloadUrl, progressUrl } = res.json<BackupDownloadReply>();
  // The build is the job runner's (not started in tests).
  await t.runDueJobs();
  let progress: BackupProgress;
  let polls = 0;
  do {
    if (polls++ > 0) await new Promise((r) => setTimeout(r, 20));
    expect(polls).toBeLessThan(500);
    const p = await t.request({ method: 'GET', url: progressUrl, token });
    expect(p.statusCode, p.body).toBe(200);
    progress = p.json<BackupProgress>();
    expect(progress.rows).toBeLessThanOrEqual(progress.totalRows);
  } while (progress.state === 'building');
  expect(progress.state).toBe('ready');
  const file = await t.request({ method: 'GET', url: downloadUrl, token });
  expect(file.statusCode).toBe(200);
  expect(file.headers['content-type']).toContain('spreadsheetml');
  expect(file.headers['content-disposition']).toMatch(/^attachment; filename="backup-.*\.xlsx"$/);
  expect(file.headers['x-content-type-options']).toBe('nosniff');
  return file.rawPayload;
}

async function tableCount(name: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(name)}`.execute(
    t.db,
  );
  return Number(rows[0]!.n);
}

/** Every sheet's rows (header first), sheets of one table joined. */
function tablesOf(book: XLSX.WorkBook): Map<string, unknown[][]> {
  const out = new Map<string, unknown[][]>();
  for (const name of book.SheetNames) {
    const base = name.replace(/ \(\d+\)$/, '');
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[name]!, {
      header: 1,
      raw: true,
      defval: null,
    });
    const have = out.get(base);
    if (have) have.push(...rows.slice(1));
    else out.set(base, rows);
  }
  return out;
}

describe('POST /api/backup/generate-download', () => {
  it('a workbook with one sheet per table holding every row, no secrets, formulas neutralised', async () => {
    // A provider's credentials never reach a backup, sealed or not.
    const provider = await t.request({
      method: 'POST',
      url: '/api/delivery/providers',
      token: admin,
      payload: {
        kind: 'jasmin',
        name: 'Backed-up gateway',
        settings: { baseUrl: 'http://127.0.0.1:9' },
        secrets: { username: 'gateway-user-secret', password: 'gateway-password-secret' },
      },
    });
    expect(provider.statusCode, provider.body).toBe(201);
    const sealed = await t.db
      .selectFrom('providers')
      .select(['secrets', 'callback_token'])
      .execute();
    const book = XLSX.read(await generate(admin), { cellFormula: true });
    const tables = tablesOf(book);
    expect([...tables.keys()]).toEqual(BACKUP_TABLES.map((tb) => tb.name));
    for (const tb of BACKUP_TABLES) {
      const rows = tables.get(tb.name)!;
      expect(rows[0], tb.name).toEqual(tb.columns.map(([c]) => c));
      expect(rows.length - 1, tb.name).toBe(await tableCount(tb.name));
    }
    // Something in every table this test filled.
    for (const name of ['users', 'credit_transactions', 'campaigns', 'campaign_recipients']) {
      expect(tables.get(name)!.length, name).toBeGreaterThan(1);
    }
    for (const name of ['campaign_files', 'tickets', 'ticket_attachments', 'credit_balances']) {
      expect(tables.get(name)!.length, name).toBeGreaterThan(1);
    }
    const secrets = [
      'password_resets',
      'rate_limits',
      'idempotency_keys',
      'mail_outbox',
      'api_keys',
    ];
    for (const secret of secrets) {
      expect(book.SheetNames).not.toContain(secret);
    }
    const users = tables.get('users')!;
    expect(users[0]).not.toContain('password_hash');
    expect(users[0]).not.toContain('token_version');
    const hashes = await t.db.selectFrom('users').select('password_hash').execute();
    const everyCell = [...tables.values()].flat(2).map(String);
    for (const { password_hash } of hashes) expect(everyCell).not.toContain(password_hash);
    expect(everyCell.some((c) => c.includes('otp-hash-secret'))).toBe(false);
    expect(tables.get('providers')!.length).toBe(3);
    expect(tables.get('providers')![0]).toEqual([
      'id',
      'name',
      'kind',
      'builtin',
      'enabled',
      'created_at',
      'updated_at',
    ]);
    const credentials = ['gateway-user-secret', 'gateway-password-secret'];
    for (const row of sealed) {
      credentials.push(
        ...Object.values(row.secrets),
        ...(row.callback_token ? [row.callback_token] : []),
      );
    }
    for (const secret of credentials) {
      expect(
        everyCell.some((c) => c.includes(secret)),
        secret,
      ).toBe(false);
    }
    expect(everyCell.some((c) => c.includes('backup-key-name') || c === apiKeySecret)).toBe(false);

    // No formula anywhere; the dangerous texts start with a quote.
    for (const name of book.SheetNames) {
      for (const [ref, cell] of Object.entries(book.Sheets[name]!)) {
        if (!ref.startsWith('!')) expect((cell as XLSX.CellObject).f, `${name}!${ref}`).toBeFalsy();
      }
    }
    const names = users.slice(1).map((r) => r[users[0]!.indexOf('name')]);
    expect(names).toEqual(
      expect.arrayContaining([`'=HYPERLINK("http://x")`, "'@SUM(A1)", "'+cmd|calc"]),
    );
    // Dates are date cells of the same instant (UTC wall clock), ids and counts numbers.
    const ledger = tables.get('credit_transactions')!;
    const col = (name: string) => ledger[0]!.indexOf(name);
    const entries = await t.db
      .selectFrom('credit_transactions')
      .select(['id', 'count', 'created_at'])
      .execute();
    for (const e of entries) {
      const row = ledger.find((r) => r[col('id')] === Number(e.id))!;
      expect(row[col('count')]).toBe(Number(e.count));
      const serial = row[col('created_at')] as number;
      expect(Math.abs((serial - 25569) * 86_400_000 - e.created_at.getTime())).toBeLessThan(2);
    }
    const subjects = tables.get('tickets')!.map((r) => r[3]);
    expect(subjects).toContain("'=1+1");
    const campaigns = tables.get('campaigns')!;
    const message = campaigns[0]!.indexOf('message');
    expect(campaigns.map((r) => r[message])).toContain("'-2+3");
  });

  it('the download and its progress need an Admin; an unknown id is 404', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/backup/generate-download',
      token: admin,
    });
    const { downloadUrl, progressUrl } = res.json<BackupDownloadReply>();
    await t.runDueJobs();
    for (const token of [reseller, sub, user]) {
      expect((await t.request({ method: 'GET', url: downloadUrl, token })).statusCode).toBe(403);
      expect((await t.request({ method: 'GET', url: progressUrl, token })).statusCode).toBe(403);
    }
    expect((await t.request({ method: 'GET', url: downloadUrl })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: downloadUrl, token: admin })).statusCode).toBe(
      200,
    );
    const unknown = '/api/backup/downloads/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const miss = await t.request({ method: 'GET', url: unknown, token: admin });
    expect(miss.statusCode).toBe(404);
    expect(miss.json()).toEqual({ message: 'Backup not found.' });
  });
});

describe('saved backups', () => {
  it('save-to-server writes the same workbook under backups/ in the store, listed and downloadable', async () => {
    const name = await saveToServer(t.app, admin);
    const stored = (await storedBytes(t.app.ctx.files, `backups/${name}`))!;
    const sheets = XLSX.read(stored).SheetNames;
    expect(sheets).toEqual(BACKUP_TABLES.map((tb) => tb.name));

    const list = await t.request({ method: 'GET', url: '/api/backup/saved', token: admin });
    const { backups } = list.json<SavedBackupList>();
    expect(backups.find((b) => b.name === name)).toMatchObject({ size: stored.length });
    const dl = await t.request({ method: 'GET', url: `/api/backup/saved/${name}`, token: admin });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-length']).toBe(String(stored.length));
    expect(dl.rawPayload.equals(stored)).toBe(true);
    const bad = await t.request({
      method: 'GET',
      url: '/api/backup/saved/..%2F..%2Fjwt.secret',
      token: admin,
    });
    expect([400, 404]).toContain(bad.statusCode);
  });

  it('a scheduled backup keeps only the newest BACKUP_KEEP scheduled ones', async () => {
    const { pool, files } = t.app.ctx;
    const ctx = { pool, files, config: { ...t.app.ctx.config, backupKeep: 2 } };
    const names: string[] = [];
    for (let i = 0; i < 3; i++) names.push((await runScheduledBackup(ctx)).name);
    const saved = (await keysUnder(files, 'backups/')).map((k) => k.slice('backups/'.length));
    const left = saved.filter((n) => n.endsWith('-scheduled.xlsx'));
    expect(left.sort()).toEqual(names.slice(1).sort());
    // Hand-saved backups are not pruned.
    expect(saved.some((n) => /\d{3}Z\.xlsx$/.test(n))).toBe(true);
  });
});

describe('roles', () => {
  const routes = [
    { method: 'POST', url: '/api/backup/generate-download' },
    { method: 'POST', url: '/api/backup/save-to-server' },
    { method: 'GET', url: '/api/backup/save-to-server' },
    { method: 'GET', url: '/api/backup/saved' },
    { method: 'GET', url: '/api/backup/saved/backup-20260101T000000000Z.xlsx' },
    { method: 'DELETE', url: '/api/data/cleanup' },
    { method: 'GET', url: '/api/admin/storage-usage' },
  ] as const;

  it('Reseller, Sub-Reseller and User get 403 on every route; no token 401', async () => {
    for (const r of routes) {
      for (const token of [reseller, sub, user]) {
        const res = await t.request({
          ...r,
          token,
          payload:
            r.method === 'DELETE'
              ? { dataType: 'users', fromDate: '2000-01-01', toDate: '2100-01-01' }
              : undefined,
        });
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      }
      expect((await t.request({ ...r })).statusCode).toBe(401);
    }
    // Nothing was deleted by the refused cleanups.
    expect(await tableCount('users')).toBe(4);
  });
});

describe('GET /api/admin/storage-usage', () => {
  it('file and database megabytes and a row count per table', async () => {
    await t.app.ctx.files.put('uploads/campaigns/big.bin', Buffer.alloc(3 * 1024 * 1024));
    const res = await t.request({ method: 'GET', url: '/api/admin/storage-usage', token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{
      fileStorage: { megabytes: number };
      databaseStorage: { megabytes: number; collections: { name: string; count: number }[] };
    }>();
    expect(body.fileStorage.megabytes).toBeGreaterThanOrEqual(3);
    expect(body.databaseStorage.megabytes).toBeGreaterThan(1);
    const counts = new Map(body.databaseStorage.collections.map((c) => [c.name, c.count]));
    for (const name of ['users', 'credit_transactions', 'campaigns', 'campaign_recipients']) {
      expect(counts.get(name), name).toBe(await tableCount(name));
    }
  });
});
