import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_PAGE_DEFAULT, type CampaignReport, type UploadReportReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { NORMAL, csvFile, postReport } from './campaign-actions.test-fixtures.js';
import { reportEntriesQuery, type ReportRowFilter } from './campaign-actions.repo.js';

/**
 * A large delivery report in one upload. 250,000 rows by default, to keep the suite quick;
 * TEST_REPORT_ROWS=1000000 runs the campaign maximum, 1,000,000 recipients (10-20 s here).
 */
const ROWS = Number(process.env.TEST_REPORT_ROWS ?? 250_000);
let t: TestApp;
let h: Hierarchy;
let id: string;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  // The campaign is written directly: this file tests the report, not the create path.
  const row = await t.db
    .insertInto('campaigns')
    .values({
      user_id: h.u1.user.id,
      created_by: h.u1.user.id,
      credit_type: NORMAL,
      message: 'Big',
      recipient_count: ROWS,
      charged_count: ROWS,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  id = row.id;
  await sql`INSERT INTO campaign_recipients (campaign_id, phone)
    SELECT ${id}::uuid, (9000000000 + g)::text FROM generate_series(0, ${ROWS - 1}) g`.execute(
    t.db,
  );
});
afterAll(() => t.close());

describe(`a ${ROWS}-row report`, () => {
  it('uploads in one transaction, then pages and exports', { timeout: 180_000 }, async () => {
    const lines = ['Mobile,Status'];
    for (let i = 0; i < ROWS; i++)
      lines.push(`${9000000000 + i},${i % 4 ? 'Delivered' : 'Failed'}`);
    lines.push('1234567,Delivered');
    const csv = Buffer.from(`${lines.join('\r\n')}\r\n`);
    lines.length = 0;

    const started = performance.now();
    const res = await postReport(t, h.admin, id, csvFile(csv));
    const uploadMs = performance.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<UploadReportReply>()).toMatchObject({
      campaign: { reportCount: ROWS, status: 'Report Generated' },
      summary: { total: ROWS, delivered: (ROWS * 3) / 4, failed: ROWS / 4 },
      unknownCount: 1,
      unknownNumbers: ['1234567'],
    });
    console.log(`upload of ${csv.length} bytes, ${ROWS} rows: ${Math.round(uploadMs)} ms`);

    const page = await t.request({
      method: 'GET',
      url: `/api/campaigns/${id}/report?cursor=${9000000000 + ROWS - 10}&limit=100`,
      token: h.u1.token,
    });
    const report = page.json<CampaignReport>();
    expect(report.entries.map((e) => e.recipient)).toEqual(
      Array.from({ length: 9 }, (_, i) => String(9000000000 + ROWS - 9 + i)),
    );
    expect(report.nextCursor).toBeNull();

    const exported = await t.request({
      method: 'GET',
      url: `/api/campaigns/${id}/report/export`,
      token: h.admin,
    });
    expect(exported.statusCode).toBe(200);
    // Each row gains an empty reason and time (",,"): an uploaded report has no engine data.
    const header = 'recipient,status,reason,last_change'.length;
    expect(exported.rawPayload.length).toBe(
      csv.length - 'Mobile,Status'.length - 19 + header + 2 * ROWS,
    );
  });

  it('a page, filtered or searched, walks the primary keys: no sort, no sequential scan', async () => {
    await sql`ANALYZE campaign_report_entries, campaign_recipients`.execute(t.ownerDb);
    const filters: ReportRowFilter[] = [
      { status: 'all' },
      { status: 'failed' },
      { status: 'delivered', q: '98765' },
    ];
    for (const filter of filters) {
      for (const cursor of [undefined, String(9000000000 + ROWS / 2)]) {
        const query = reportEntriesQuery(id, cursor, REPORT_PAGE_DEFAULT + 1, filter);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${query}`.execute(t.db);
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(plan).toMatch(/Index Scan using campaign_report_entries_pkey/);
        expect(plan).toMatch(/Index Scan using campaign_recipients_pkey/);
        expect(plan, plan).not.toMatch(/Sort|Seq Scan|Hash/);
      }
    }
  });
});
