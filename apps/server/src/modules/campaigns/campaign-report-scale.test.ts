import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignReport, UploadReportReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { NORMAL, csvFile, postReport } from './campaign-actions.test-fixtures.js';

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
    expect(exported.rawPayload.length).toBe(csv.length - 'Mobile,Status'.length - 19 + 16);
  });
});
