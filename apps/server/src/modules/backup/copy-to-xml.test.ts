import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import * as XLSX from '@e965/xlsx';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { XlsxWriter, type XlsxCell } from '../../lib/xlsx-writer.js';
import { copyPlan, copySql } from './backup-rows-sql.js';
import { CopyToXml } from './copy-to-xml.js';
import { SharedStrings } from './shared-strings.js';
import type { BackupTable } from './backup-tables.js';
import { copyTuples, readTuples } from './copy-tuples.test-fixtures.js';

/**
 * The backup turns the tuples of PostgreSQL's binary COPY into sheet rows (copy-to-xml.ts). Nasty
 * values go through it (in chunks cut anywhere) and, side by side, through the JavaScript writer
 * (addRow, as the backup wrote them before): SheetJS reads both back cell for cell, same value,
 * same type, and the formulas come back neutralised.
 */

const TEXTS: (string | null)[] = [
  '=1+1',
  '=HYPERLINK("http://evil","x")',
  "+1+cmd|'/C calc'!A0",
  '-2+3',
  '@SUM(1)',
  '\tx',
  '\rx',
  '\u0001=cmd',
  '\u0001\u0002',
  'a\u0007b\u001fc\u000bd',
  '<b>&amp; "q" \'s\'</b> ]]>',
  'back\\slash \\n \\\\ \\t',
  '\\',
  'line1\nline2',
  'tab\tin the middle',
  'cr\r\nlf',
  '😀 emoji, ünïcödé, 中文, \u200b',
  ' lead and trail ',
  'ok \ufffe\uffff ok',
  'x'.repeat(40_000),
  'a=b',
  '',
  null,
  'plain',
];
const INTS: (string | null)[] = [
  '0',
  '-5',
  '1234567890123',
  '9007199254740993',
  null,
  '-2147483648',
  '2147483648',
  '-9223372036854775808',
];
const DATES: (string | null)[] = [
  '2024-02-29T12:34:56.789Z',
  '2024-01-01 00:00:00.123456+00',
  '1969-12-31T23:59:59.9995Z',
  '1900-03-01T00:00:00Z',
  '4000-01-01T00:00:00.0015Z',
  '1000-06-15T00:00:00.5005Z',
  'infinity',
  '-infinity',
  null,
];

const TABLE: BackupTable = {
  name: 'nasty',
  columns: [
    ['v', 'text'],
    ['u', 'text'],
    ['n', 'int'],
    ['d', 'date'],
    ['b', 'text'],
    ['s', 'int'],
    ['k', 'int'],
    ['f', 'int'],
    ['dd', 'date'],
    ['ts', 'date'],
  ],
};
const TYPES = new Map([
  ['v', 'text'],
  ['u', 'uuid'],
  ['n', 'bigint'],
  ['d', 'timestamp with time zone'],
  ['b', 'boolean'],
  ['s', 'smallint'],
  ['k', 'integer'],
  ['f', 'numeric'],
  ['dd', 'date'],
  ['ts', 'timestamp without time zone'],
]);
const HEADER = ['v', 'u', 'n', 'd', 'b', 's', 'k', 'f', 'dd', 'ts'];

let t: TestApp;
let client: pg.PoolClient;
beforeAll(async () => {
  t = await createTestApp();
  client = await t.app.ctx.pool.connect();
  await client.query(
    `CREATE TEMP TABLE nasty (i int, v text, u uuid, n bigint, d timestamptz, b boolean,
       s smallint, k integer, f numeric, dd date, ts timestamp)`,
  );
  const rows = Math.max(TEXTS.length, INTS.length, DATES.length);
  for (let i = 0; i < rows; i++) {
    await client.query(
      `INSERT INTO nasty VALUES ($1, $2, CASE WHEN $1 % 3 = 0 THEN NULL ELSE gen_random_uuid() END,
         $3, $4, CASE WHEN $1 % 3 = 1 THEN NULL ELSE $1 % 2 = 0 END,
         CASE WHEN $1 % 5 = 4 THEN NULL ELSE ($1 * 7919) % 65536 - 32768 END,
         CASE WHEN $1 % 4 = 3 THEN NULL ELSE (($1 * 104729) % 2000000 - 1000000) * 2147 END,
         CASE $1 % 6 WHEN 5 THEN NULL WHEN 4 THEN 'NaN' ELSE $1 * 1.25 - 7.3 END,
         CASE $1 % 7 WHEN 6 THEN NULL WHEN 5 THEN 'infinity' ELSE date '1899-12-31' + $1 * 1999 END,
         CASE WHEN $1 % 4 = 2 THEN NULL ELSE timestamp '2024-01-01 00:00:00.001' + $1 * interval '37 days 1.0005 seconds' END)`,
      [i, TEXTS[i % TEXTS.length], INTS[i % INTS.length], DATES[i % DATES.length]],
    );
  }
});
afterAll(async () => {
  client.release(true);
  await t.close();
});

/** The plain COPY turned into rows by copy-to-xml.ts, in chunks cut anywhere. */
async function viaCopy(piece: number): Promise<Buffer> {
  const out = new PassThrough();
  const file = buffer(out);
  const w = new XlsxWriter(out);
  await w.addSheet('nasty');
  await w.addRow(HEADER, 'bold');
  const plan = copyPlan(TABLE, TYPES);
  const sql = copySql({ ...plan, sql: `${plan.sql} ORDER BY i` });
  const all = await readTuples(client, sql);
  const x = new CopyToXml(plan.kinds);
  for (let at = 0; at < all.length; at += piece) {
    const { xml, rows } = x.push(all.subarray(at, at + piece));
    await w.addRowsXml(xml, rows);
  }
  expect(x.pending).toBe(0);
  await w.finish();
  return file;
}

/** What the backup wrote before: each value read by node-postgres, turned into a cell in JS. */
async function viaJs(): Promise<Buffer> {
  const out = new PassThrough();
  const file = buffer(out);
  const w = new XlsxWriter(out);
  await w.addSheet('nasty');
  await w.addRow(HEADER, 'bold');
  const { rows } = await client.query<unknown[]>({
    text: `SELECT v, u::text, n::float8, (extract(epoch from d) * 1000)::float8, b::text,
             s::float8, k::float8, f::float8, (extract(epoch from dd) * 1000)::float8,
             (extract(epoch from ts) * 1000)::float8
           FROM nasty ORDER BY i`,
    rowMode: 'array',
  });
  for (const row of rows) {
    const cells: XlsxCell[] = row.map((value, c) => {
      if (value === null) return null;
      if (c === 3 || c === 8 || c === 9) {
        return typeof value === 'number' ? new Date(value) : String(value);
      }
      if (c === 2 || (c >= 5 && c <= 7)) return Number(value);
      return String(value);
    });
    await w.addRow(cells);
  }
  await w.finish();
  return file;
}

describe('sheet rows made from binary COPY tuples', () => {
  it('read back as the JavaScript writer’s: every value and type, formulas neutralised', async () => {
    const sheetOf = (file: Buffer) => {
      const book = XLSX.read(file, { cellNF: true });
      return book.Sheets[book.SheetNames[0]!]!;
    };
    const sql = sheetOf(await viaCopy(1 << 20));
    const js = sheetOf(await viaJs());
    const cells = (s: XLSX.WorkSheet) =>
      Object.fromEntries(
        Object.entries(s)
          .filter(([k]) => !k.startsWith('!'))
          .map(([k, c]) => [k, { t: (c as XLSX.CellObject).t, v: (c as XLSX.CellObject).v }]),
      );
    expect(cells(sql)).toEqual(cells(js));
    for (const piece of [1, 7, 4096]) {
      const copied = sheetOf(await viaCopy(piece));
      expect(cells(copied)).toEqual(cells(js));
    }
    expect(sql['!ref']).toBe(js['!ref']);

    const rows = XLSX.utils.sheet_to_json<unknown[]>(sql, { header: 1, raw: true });
    const texts = rows.slice(1).map((r) => r[0]);
    expect(texts).toContain("'=1+1");
    expect(texts).toContain('\'=HYPERLINK("http://evil","x")');
    expect(texts).toContain("'+1+cmd|'/C calc'!A0");
    expect(texts).toContain("'-2+3");
    expect(texts).toContain("'@SUM(1)");
    expect(texts).toContain("'\tx");
    expect(texts).toContain("'\rx");
    expect(texts).toContain("'=cmd");
    expect(texts).toContain('abcd');
    expect(texts).toContain('<b>&amp; "q" \'s\'</b> ]]>');
    expect(texts).toContain('back\\slash \\n \\\\ \\t');
    expect(texts).toContain('line1\nline2');
    expect(texts).toContain('tab\tin the middle');
    // (SheetJS reads CR LF as LF, from either writer.)
    expect(texts.some((v) => typeof v === 'string' && /^cr\r?\nlf$/.test(v))).toBe(true);
    expect(texts).toContain('😀 emoji, ünïcödé, 中文, \u200b');
    expect(texts).toContain(' lead and trail ');
    expect(texts).toContain('ok  ok');
    expect(texts).toContain('x'.repeat(32_767));
    expect(texts.every((v) => v === undefined || typeof v === 'string')).toBe(true);
    // Numbers stay numbers and dates are date cells (the style's date format).
    expect(sql.C3).toMatchObject({ t: 'n', v: -5 });
    expect(sql.D2).toMatchObject({
      t: 'n',
      v: Date.UTC(2024, 1, 29, 12, 34, 56, 789) / 86_400_000 + 25_569,
    });
    expect(XLSX.SSF.is_date(String(sql.D2?.z ?? ''))).toBe(true);
    // Every kind of number and date column (int2, int4, numeric, date, timestamp) holds some.
    for (const col of ['F', 'G', 'H', 'I', 'J']) {
      const numbers = Object.entries(sql).filter(
        ([k, c]) => new RegExp(`^${col}\\d+$`).test(k) && (c as XLSX.CellObject).t === 'n',
      );
      expect(numbers.length).toBeGreaterThan(5);
    }
  });
});

describe('bytes moved a word at a time, output memory handed over', () => {
  // Every length from 0 to 70 (short of a word, whole words, a word and a bit, past the 64
  // bytes copied in one call), each byte telling its place, so a word misplaced shows.
  const field = (n: number, from: number) =>
    Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((from + i) % 26))).join('');
  const rowsFrom = (from: number) =>
    Array.from({ length: 2_000 }, (_, i): [string, string, bigint, string] => {
      const n = i % 71;
      return [
        field(n, from + i),
        field(n, from + 2 * i),
        BigInt((from + i) % 10 ** ((n % 15) + 1)) * (i % 2 ? 1n : -1n),
        field((i * 7) % 71, from),
      ];
    });
  const expected = (rows: [string, string, bigint, string][]) =>
    rows
      .map(([t, s, v, last]) => {
        const text = (x: string) =>
          x === '' ? '<c/>' : `<c t="inlineStr"><is><t>${x}</t></is></c>`;
        const end = last === '' ? '' : text(last);
        return `<row>${text(t)}${text(s)}<c><v>${v}</v></c>${end}</row>`;
      })
      .join('');
  const kinds = ['text', 'safe', 'int', 'text'] as const;

  it('every field whole; a batch’s XML stays as it was while later batches are written', () => {
    const x = new CopyToXml(kinds);
    const [a, b, c, d] = [rowsFrom(0), rowsFrom(5), rowsFrom(11), rowsFrom(17)];
    const same = (xml: Buffer, rows: [string, string, bigint, string][]) =>
      xml.toString() === expected(rows);
    const xa = x.push(copyTuples(a)).xml;
    const xb = x.push(copyTuples(b)).xml;
    const xc = x.push(copyTuples(c)).xml;
    const xd = x.push(copyTuples(d)).xml;
    expect([same(xa, a), same(xb, b), same(xc, c), same(xd, d)]).toEqual([true, true, true, true]);
    // Each in memory of its own, from its start: the worker hands each over whole.
    expect(new Set([xa, xb, xc, xd].map((xml) => xml.buffer)).size).toBe(4);
    expect([xa, xb, xc, xd].every((xml) => xml.byteOffset === 0)).toBe(true);
    // A small batch is a copy of its own too, never memory a later batch writes into.
    const small = x.push(copyTuples(a.slice(0, 3))).xml;
    x.push(copyTuples(c));
    expect(same(small, a.slice(0, 3))).toBe(true);
    expect(small.byteOffset).toBe(0);
  });

  it('fields looked up in the shared strings end where they end, and point at their own text', () => {
    const shared = new SharedStrings();
    const x = new CopyToXml(kinds, shared);
    const rows = [...rowsFrom(0), ...rowsFrom(0), ...rowsFrom(3)];
    const { xml } = x.push(copyTuples(rows));
    expect(x.references).toBeGreaterThan(rows.length);
    const strings = [
      ...shared
        .xml(x.references)
        .toString()
        .matchAll(/<si><t>(.*?)<\/t><\/si>/g),
    ];
    const inline = xml
      .toString()
      .replace(
        /<c t="s"><v>(\d+)<\/v><\/c>/g,
        (_, i: string) => `<c t="inlineStr"><is><t>${strings[Number(i)]![1]}</t></is></c>`,
      );
    expect(inline === expected(rows)).toBe(true);
  });
});
