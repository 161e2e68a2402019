import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { XlsxWriter } from '../../lib/xlsx-writer.js';
import { CopyToXml } from './copy-to-xml.js';
import { SharedStrings } from './shared-strings.js';
import { copyTuples } from './copy-tuples.test-fixtures.js';

/**
 * Shared strings in the backup's sheets: a column of repeating texts keeps pointing into the
 * table, a column of new texts stops adding to it after its budget (8,192) and goes on inline,
 * texts that need escaping or a formula mark stay inline, and a real reader gets every value.
 */

describe('shared strings', () => {
  it('repeats share, new texts stop at the budget, unsafe texts stay inline; all read back', async () => {
    const kinds = ['AAA', 'BBB', 'C&D'];
    const rows = Array.from({ length: 20_000 }, (_, i) => [
      `unique-${i}`,
      kinds[i % 3]!,
      i % 2 ? '=1+1' : 'x < y',
    ]);
    const shared = new SharedStrings();
    const converter = new CopyToXml(['text', 'text', 'text'], shared);
    const { xml, rows: n } = converter.push(copyTuples(rows));
    expect(n).toBe(20_000);
    // 8,192 unique texts, the two repeating ones without `&`; none of the third column.
    expect(shared.size).toBe(8192 + 2);
    expect(converter.references).toBe(8192 + Math.ceil((20_000 * 2) / 3));
    const text = xml.toString();
    expect(text).toContain('<t>unique-19999</t>');
    expect(text).not.toContain('<t>unique-100</t>');
    expect(text).toContain("<t>'=1+1</t>");
    expect(text).toContain('<t>C&amp;D</t>');

    const out = new PassThrough();
    const file = buffer(out);
    const w = new XlsxWriter(out);
    await w.addSheet('t');
    await w.addRowsXml(xml, n);
    await w.finish(shared.xml(converter.references));
    const book = XLSX.read(await file);
    const read = XLSX.utils.sheet_to_json<string[]>(book.Sheets.t!, { header: 1, raw: true });
    expect(read).toEqual(rows.map((r) => [r[0], r[1], r[2]!.startsWith('=') ? `'${r[2]}` : r[2]]));
  });

  it('texts one byte apart, at any place and of any length, are told apart; the same found again', () => {
    const shared = new SharedStrings();
    const base = Buffer.from('abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH');
    const keys: Buffer[] = [];
    for (let n = 1; n <= 40; n++) {
      keys.push(base.subarray(0, n));
      for (let at = 0; at < n; at++) {
        const k = Buffer.from(base.subarray(0, n));
        k[at] = 0x2e;
        keys.push(k);
      }
    }
    const unique = new Set(keys.map((k) => k.toString('latin1')));
    // Each key sits at an odd place in a bigger buffer, as a field does in a batch.
    const at = (k: Buffer) => Buffer.concat([Buffer.from('xyz'), k, Buffer.from('\t')]);
    const index = new Map<string, number>();
    for (const k of keys) {
      const i = shared.lookup(at(k), 3, 3 + k.length, true);
      const seen = index.get(k.toString('latin1'));
      if (seen === undefined) index.set(k.toString('latin1'), i);
      else expect(i).toBe(seen);
    }
    expect(shared.size).toBe(unique.size);
    expect(new Set(index.values()).size).toBe(unique.size);
    // Past the first slots' room (twice over): the table grows and finds every entry again.
    const more = Array.from({ length: 10_000 }, (_, i) => Buffer.from(`more-${i}`));
    for (const [i, k] of more.entries()) {
      expect(shared.lookup(k, 0, k.length, true)).toBe(unique.size + i);
    }
    for (const [i, k] of more.entries())
      expect(shared.lookup(k, 0, k.length, false)).toBe(unique.size + i);
    for (const k of keys) {
      expect(shared.lookup(at(k), 3, 3 + k.length, false)).toBe(index.get(k.toString('latin1')));
      expect(shared.added).toBe(false);
    }
    expect(shared.lookup(Buffer.from('not there'), 0, 9, false)).toBe(-1);
  });
});
