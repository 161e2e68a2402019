import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import zlib from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { columnTypes, copyPlan, copySql, type CopyPlan } from './backup-rows-sql.js';
import { BACKUP_TABLES } from './backup-tables.js';
import { pack } from './backup-zip.js';
import { copyFrames, framesIn } from './copy-frames.js';
import { CopyToXml } from './copy-to-xml.js';
import { CopyXmlWorker } from './copy-worker.js';
import { SharedStrings } from './shared-strings.js';
import { XlsxWriter } from '../../lib/xlsx-writer.js';

/**
 * The worker thread runs copy-to-xml.ts's own source: batches of the users table's COPY frames
 * come back deflated, and the pieces joined inflate to the same bytes the converter makes on
 * this thread, with their CRC-32 and the same shared strings, and read back as the table's values; a batch the worker cannot convert fails with the
 * worker's reason (as does every one after it).
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

async function userFrames(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sql = copySql(await usersPlan());
  for await (const c of copyFrames(client, sql) as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

/** The frames cut into batches of `size` rows, each in memory of its own. */
function batches(all: Buffer, size: number): { frames: Uint8Array; rows: number }[] {
  const out: { frames: Uint8Array; rows: number }[] = [];
  for (let at = 0; at < all.length;) {
    const { rows, end } = framesIn(all.subarray(at), size);
    out.push({ frames: Uint8Array.from(all.subarray(at, at + end)), rows });
    at += end;
  }
  return out;
}

describe('CopyXmlWorker', () => {
  it('converts and deflates batches on its thread to the bytes this thread makes, in order', async () => {
    const { kinds } = await usersPlan();
    const all = await userFrames();
    const shared = new SharedStrings();
    const converter = new CopyToXml(kinds, shared);
    const here = converter.push(all, Number.MAX_SAFE_INTEGER);
    expect(here.rows).toBe(7);
    const hereStrings = shared.xml(converter.references);

    const worker = new CopyXmlWorker();
    try {
      worker.startTable(kinds);
      const pieces = batches(all, 2);
      expect(pieces.length).toBe(4);
      const packed = await Promise.all(
        pieces.map((b, i) => worker.convert(b.frames, b.rows, i === 0 ? 7 : undefined)),
      );
      const end = pack(new Uint8Array(0), 0, true).data;
      const xml = zlib.inflateRawSync(Buffer.concat([...packed.map((p) => p.data), end]));
      expect(xml.equals(here.xml)).toBe(true);
      expect(packed.map((p) => p.size).reduce((a, b) => a + b)).toBe(here.xml.length);
      // The CRC-32 runs on from the seed the first batch brought.
      expect(packed.at(-1)!.crc).toBe(zlib.crc32(here.xml, 7));
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
      const [first] = batches(await userFrames(), 2);
      // Claims a row more than the frames hold.
      await expect(worker.convert(first!.frames, first!.rows + 1)).rejects.toThrow(
        /a batch of 3 rows gave 2/,
      );
      const [again] = batches(await userFrames(), 2);
      await expect(worker.convert(again!.frames, again!.rows)).rejects.toThrow(/a batch of 3/);
    } finally {
      await worker.close();
    }
  });
});
