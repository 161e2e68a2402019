import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  server as msg,
  SUPPRESSION_IMPORT_MAX_BYTES,
  SUPPRESSION_IMPORT_MAX_ROWS,
  type SuppressionCheckReply,
  type SuppressionImportReply,
  type SuppressionPage,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, multipart, type Hierarchy } from '../users/test-fixtures.js';
import { messageOf } from '../campaigns/campaign-actions.test-fixtures.js';

/** CSV import and export of the suppression list, and the campaign form's check. */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

function importCsv(token: string, data: Buffer | string, filename = 'numbers.csv') {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const body = multipart({}, { field: 'file', filename, type: 'text/csv', data: bytes });
  return t.request({ method: 'POST', url: '/api/suppressions/import', token, ...body });
}
const phonesOf = async (token: string) =>
  (await t.request({ method: 'GET', url: '/api/suppressions?limit=200', token }))
    .json<SuppressionPage>()
    .suppressions.map((s) => s.phone);
const check = (token: string, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/suppressions/check', token, payload });

describe('CSV import', () => {
  it('reads a spreadsheet’s export (BOM, CRLF, quoted cells, a phone column) and counts each row', async () => {
    const csv =
      '\uFEFF"Name","Phone Number","City"\r\n' +
      '"Asha","+91 98765 43210","Pune"\r\n' +
      '"Ravi","(987) 654-3212","Delhi, NCR"\r\n' +
      '"Asha again","919876543210",""\r\n' +
      '"No number","n/a","x"\r\n' +
      '"Short","12345","y"\r\n';
    const res = await importCsv(h.u1.token, csv);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<SuppressionImportReply>();
    expect(body).toEqual({
      message: msg.suppressionImportDone(2, 1, 2),
      added: 2,
      skipped: 1,
      invalid: 2,
    });
    expect((await phonesOf(h.u1.token)).sort()).toEqual(['919876543210', '9876543212']);
    // Again: all listed already.
    const again = (await importCsv(h.u1.token, csv)).json<SuppressionImportReply>();
    expect([again.added, again.skipped, again.invalid]).toEqual([0, 3, 2]);
  });

  it('reads one number per row without a header, LF or CR line ends', async () => {
    const res = await importCsv(h.u2.token, '9000000001\n9000000002\r9000000003\n\n');
    expect(res.json<SuppressionImportReply>()).toMatchObject({ added: 3, skipped: 0, invalid: 0 });
  });

  it('imports nothing from a malformed, too long or too large file, and refuses one not .csv or missing', async () => {
    const before = await phonesOf(h.u3.token);
    const cases: [Buffer | string, string, number, string][] = [
      ['phone\n9111111111\n"9222222222\n', 'a.csv', 400, msg.suppressionImportMalformed],
      [Buffer.from([0x70, 0x68, 0xff, 0xfe, 0x0a]), 'b.csv', 400, msg.suppressionImportMalformed],
      ['9111111111\n', 'numbers.txt', 400, msg.suppressionImportNotCsv],
    ];
    for (const [data, name, status, message] of cases) {
      const res = await importCsv(h.u3.token, data, name);
      expect(res.statusCode, name).toBe(status);
      expect(messageOf(res)).toBe(message);
    }
    const rows = Array.from({ length: SUPPRESSION_IMPORT_MAX_ROWS + 1 }, (_, i) => 9e9 + i);
    const tooMany = await importCsv(h.u3.token, `phone\n${rows.join('\n')}\n`);
    expect(tooMany.statusCode).toBe(400);
    expect(messageOf(tooMany)).toBe(msg.suppressionImportTooManyRows(SUPPRESSION_IMPORT_MAX_ROWS));
    const tooLarge = await importCsv(
      h.u3.token,
      Buffer.alloc(SUPPRESSION_IMPORT_MAX_BYTES + 1, '9'),
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(messageOf(tooLarge)).toBe(
      msg.suppressionImportTooLarge(SUPPRESSION_IMPORT_MAX_BYTES / (1024 * 1024)),
    );
    const empty = await t.request({
      method: 'POST',
      url: '/api/suppressions/import',
      token: h.u3.token,
      ...multipart({ other: 'x' }),
    });
    expect(empty.statusCode).toBe(400);
    expect(messageOf(empty)).toBe(msg.suppressionImportFileRequired);
    expect(await phonesOf(h.u3.token)).toEqual(before);
  });
});

describe('CSV export', () => {
  it('streams the list as CSV that imports again as it is', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/suppressions/export',
      token: h.u1.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('phone,source,created_at,owner_email');
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual(['919876543210', '9876543212']);
    const back = await importCsv(h.u3.token, res.body);
    expect(back.json<SuppressionImportReply>()).toMatchObject({ added: 2, invalid: 0 });
    // Another user's export holds only its own; the Admin's may filter by owner.
    const other = await t.request({
      method: 'GET',
      url: `/api/suppressions/export?ownerId=${h.u2.user.id}`,
      token: h.admin,
    });
    expect(other.body.trim().split('\r\n')).toHaveLength(4);
    const refused = await t.request({
      method: 'GET',
      url: `/api/suppressions/export?ownerId=${h.u2.user.id}`,
      token: h.u1.token,
    });
    expect(refused.statusCode).toBe(404);
  });
});

describe('POST /api/suppressions/check', () => {
  it('counts the pasted numbers on the owner’s list, the caller’s or Campaign For’s', async () => {
    const numbers = ['919876543210', '9876543212', '9999999999', '919876543210'];
    const mine = await check(h.u1.token, { numbers: numbers.join(',') });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json<SuppressionCheckReply>()).toEqual({ suppressed: 2 });
    // S1 creating for U1 (below it) sees U1's list; for itself, its own (empty).
    const forU1 = await check(h.s1.token, {
      numbers: numbers.join(','),
      userEmail: h.u1.user.email,
    });
    expect(forU1.json<SuppressionCheckReply>()).toEqual({ suppressed: 2 });
    expect(
      (await check(h.s1.token, { numbers: numbers.join(',') })).json<SuppressionCheckReply>(),
    ).toEqual({
      suppressed: 0,
    });
    // Not below the caller: 404, as the campaign itself would answer.
    const stranger = await check(h.r2.token, {
      numbers: numbers.join(','),
      userEmail: h.u1.user.email,
    });
    expect(stranger.statusCode).toBe(404);
    expect(messageOf(stranger)).toBe(msg.userNotFound);
  });

  it('takes a campaign’s million numbers in one statement and refuses a non-number', async () => {
    // A campaign's maximum: a million numbers in one comma-joined string.
    const many = Array.from({ length: 1_000_000 }, (_, i) => `9${String(i).padStart(9, '0')}`);
    const res = await check(h.u2.token, { numbers: many.join(',') });
    expect(res.json<SuppressionCheckReply>(), res.body).toEqual({ suppressed: 3 });
    const bad = await check(h.u2.token, { numbers: '9876543210,98765abc10' });
    expect(bad.statusCode).toBe(400);
    expect(messageOf(bad)).toBe(msg.suppressionPhoneInvalid);
  });
});
