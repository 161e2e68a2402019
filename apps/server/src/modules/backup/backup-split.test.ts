import { Writable } from 'node:stream';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { writeBackup } from './backup-writer.js';
import type * as XlsxWriterModule from '../../lib/xlsx-writer.js';

/**
 * A table past a sheet's row limit goes on in the next sheet, which repeats the header: here the
 * limit is made 3 rows (header included), so the users table spreads over several sheets, and
 * reading them back joined finds every user once.
 */
vi.mock('../../lib/xlsx-writer.js', async (importOriginal) => ({
  ...(await importOriginal<typeof XlsxWriterModule>()),
  XLSX_MAX_ROWS: 3,
}));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.adminToken();
  for (let i = 0; i < 4; i++) await t.createUser(admin, { role: 'User' });
});
afterAll(() => t.close());

describe('a table longer than a sheet', () => {
  it('continues in numbered sheets with the header repeated, every row once', async () => {
    const chunks: Buffer[] = [];
    const out = new Writable({
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk);
        cb();
      },
    });
    const result = await writeBackup(t.app.ctx.pool, out);
    expect(result.rows.users).toBe(5);
    const book = XLSX.read(Buffer.concat(chunks));
    const userSheets = book.SheetNames.filter((n) => /^users( \(\d+\))?$/.test(n));
    expect(userSheets).toEqual(['users', 'users (2)', 'users (3)']);
    const emails: unknown[] = [];
    for (const name of userSheets) {
      const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[name]!, { header: 1 });
      expect(rows[0]).toContain('email');
      expect(rows.length).toBeLessThanOrEqual(3);
      emails.push(...rows.slice(1).map((r) => r[1]));
    }
    const db = await t.db.selectFrom('users').select('email').execute();
    expect(emails.sort()).toEqual(db.map((u) => u.email).sort());
  });
});
