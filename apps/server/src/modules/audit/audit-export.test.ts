import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { AUDIT_CSV_COLUMNS, AUDIT_EXPORT_RATE_LIMIT, auditMessages as m } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { recordAudit, SYSTEM_ACTOR } from './index.js';

/** GET /api/audit-log/export: the filtered entries as CSV, formula-safe, rate limited. */

let t: TestApp;
let admin: string;
let reseller: Awaited<ReturnType<TestApp['createUser']>>;
/** When the fixtures' entries begin (signing in and creating the Reseller wrote entries too). */
let from: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  reseller = await t.createUser(admin, { role: 'Reseller' });
  const now = await sql<{ at: Date }>`SELECT clock_timestamp() AS at`.execute(t.db);
  from = encodeURIComponent(now.rows[0]!.at.toISOString());
  await recordAudit(t.db, {
    actor: { ...SYSTEM_ACTOR, ip: '198.51.100.1' },
    action: 'template.update',
    // A label that would run as a formula in a spreadsheet.
    target: { type: 'template', id: 't1', label: '=HYPERLINK("x")', subjectUserId: null },
    changes: { body: { before: '+a', after: '@b' } },
  });
  await recordAudit(t.db, {
    actor: {
      userId: reseller.user.id,
      apiKeyId: null,
      label: reseller.user.email,
      role: 'Reseller',
      ip: '203.0.113.9',
      userAgent: 'curl/8',
    },
    action: 'credits.add',
    target: {
      type: 'user',
      id: reseller.user.id,
      label: reseller.user.email,
      subjectUserId: reseller.user.id,
    },
    changes: { balance: { before: 0, after: 5 } },
  });
});
afterAll(() => t.close());

const csvOf = (body: string) => parse(body, { relax_column_count: true }) as string[][];

describe('GET /api/audit-log/export', () => {
  it('answers CSV of the filtered entries, cells that start a formula neutralised', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/audit-log/export?from=${from}`,
      token: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = csvOf(res.body);
    expect(rows[0]).toEqual([...AUDIT_CSV_COLUMNS]);
    expect(rows).toHaveLength(3);
    const [, add, template] = rows;
    expect(add!.slice(1, 8)).toEqual([
      reseller.user.email,
      'Reseller',
      '',
      'credits.add',
      'user',
      reseller.user.id,
      reseller.user.email,
    ]);
    expect(JSON.parse(add![8]!)).toEqual({ balance: { before: 0, after: 5 } });
    expect(add!.slice(9)).toEqual(['203.0.113.9', 'curl/8']);
    expect(template![7]).toBe(`'=HYPERLINK("x")`);
    expect(template![9]).toBe('198.51.100.1');

    const filtered = await t.request({
      method: 'GET',
      url: `/api/audit-log/export?action=template&from=${from}`,
      token: admin,
    });
    expect(csvOf(filtered.body).map((r) => r[4])).toEqual(['Action', 'template.update']);
  });

  it('gives a Reseller its own entries only', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/audit-log/export?from=${from}`,
      token: reseller.token,
    });
    expect(csvOf(res.body).map((r) => r[4])).toEqual(['Action', 'credits.add']);
  });

  it('refuses a bad filter as JSON, and past the rate answers 429 with its message', async () => {
    const bad = await t.request({
      method: 'GET',
      url: '/api/audit-log/export?action=nope',
      token: admin,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: m.filterActionInvalid });
    let last = bad;
    for (let i = 0; i <= AUDIT_EXPORT_RATE_LIMIT.max; i++) {
      last = await t.request({
        method: 'GET',
        url: '/api/audit-log/export',
        token: reseller.token,
      });
    }
    expect(last.statusCode).toBe(429);
    expect(last.json()).toEqual({ message: m.exportTooMany });
    expect(last.headers['retry-after']).toBeDefined();
  });
});
