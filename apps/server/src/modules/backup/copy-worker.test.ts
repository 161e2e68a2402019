import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import * as XLSX from '@e965/xlsx';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { copyPlan, copySql, type CopyPlan } from './backup-rows-sql.js';
import { columnTypes } from './backup.repo.js';
import { BACKUP_TABLES } from './backup-tables.js';
import { CopyToXml } from './copy-to-xml.js';
import { CopyXmlWorker } from './copy-worker.js';
import { SharedStrings } from './shared-strings.js';
import { XlsxWriter } from '../../lib/xlsx-writer.js';
import { readTuples, tupleBatches } from './copy-tuples.test-fixtures.js';

/**
 * The worker thread (copy-worker.thread.ts, started from its module file) converts batches of
 * the users table's COPY tuples: joined in order, its XML is the bytes the converter makes on
 * this thread, with the same shared strings, and reads back as the table's values; a batch the
 * worker cannot convert fails with the worker's reason (as does every one after it).
 */

let t: TestApp;
let client: pg.PoolClient;
beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.adminToken();
  for (let i = 0; i < 6; i++) {
    await t.createUser(admin, { role: 'User', name: i % 2 ? `=cmd ${i} & <b>` : ` spaced ${i} ` });
  }
  client = await t.app.ctx.pool.connect();
  await client.query(`UPDATE users SET address = ' spaced ' WHERE name LIKE 'spaced 0'`);
});
afterAll(async () => {
  client.release();
  await t.close();
});

const users = BACKUP_TABLES.find((tb) => tb.name === 'users')!;

/** The users table's binary COPY, as the backup plans it. */
async function usersPlan(): Promise<CopyPlan> {
  return copyPlan(users, (await columnTypes(client)).get('users')!);
}

async function userTuples(): Promise<Buffer> {
  return readTuples(client, copySql(await usersPlan()));
}

describe('CopyXmlWorker', () => {
  it('converts batches on its thread to the bytes this thread makes, in order', async () => {
    const { kinds } = await usersPlan();
    const all = await userTuples();
    const shared = new SharedStrings();
    const converter = new CopyToXml(kinds, shared);
    const here = converter.push(all);
    expect(here.rows).toBe(7);
    const hereStrings = shared.xml(converter.references);

    const worker = new CopyXmlWorker();
    try {
      worker.startTable(kinds);
      const pieces = tupleBatches(all, 2);
      expect(pieces.length).toBe(4);
      const xmls = await Promise.all(pieces.map((b) => worker.convert(b.tuples, b.rows)));
      const xml = Buffer.concat(xmls);
      expect(xml.equals(here.xml)).toBe(true);
      const strings = await worker.sharedStrings();
      expect(strings?.toString()).toBe(hereStrings.toString());
      expect(strings?.toString()).toContain('<si><t>admin@test.local</t></si>');
      expect(here.xml.toString()).toContain('<c t="s"><v>');

      // Read back with a real reader: every user's email, name, role and status.
      const out = new PassThrough();
      const file = buffer(out);
      const w = new XlsxWriter(out);
      await w.addSheet('users');
      await w.addRowsXml(xml, here.rows);
      await w.finish(strings);
      const book = XLSX.read(await file);
      const read = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.users!, { header: 1 });
      const db = await client.query<{ email: string; name: string; role: string; status: string }>(
        'SELECT email, name, role, status FROM users',
      );
      const cellsOf = (r: unknown[]) => [r[1], r[2], r[3], r[4]].join('|');
      expect(read.map(cellsOf).sort()).toEqual(
        db.rows
          .map((u) => [u.email, u.name.startsWith('=') ? `'${u.name}` : u.name, u.role, u.status])
          .map((r) => r.join('|'))
          .sort(),
      );
      expect(here.xml.toString()).toContain("'=cmd 1 &amp; &lt;b&gt;");
      expect(here.xml.toString()).toContain('<t xml:space="preserve"> spaced </t>');
    } finally {
      await worker.close();
    }
  });

  it('a batch the worker cannot convert fails with its reason, and so does every later one', async () => {
    const worker = new CopyXmlWorker();
    try {
      worker.startTable((await usersPlan()).kinds);
      const [first] = tupleBatches(await userTuples(), 2);
      // Claims a row more than the batch holds.
      await expect(worker.convert(first!.tuples, first!.rows + 1)).rejects.toThrow(
        /a batch of 3 rows gave 2/,
      );
      const [again] = tupleBatches(await userTuples(), 2);
      await expect(worker.convert(again!.tuples, again!.rows)).rejects.toThrow(/a batch of 3/);
    } finally {
      await worker.close();
    }
  });
});
