import { describe, expect, it } from 'vitest';
import { parseRecipientText, recipientKeyToString } from '@herald/contract';
import { recipientCopyChunks } from './recipient-copy.js';
import {
  RecipientScanner,
  recipientsDigest,
  scanRecipients,
  type RecipientList,
} from './recipient-scan.js';

/** By length, then value (byte order within one length): the scanner's key order. */
const byKey = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** The reference's answer in the scanner's shape: numbers in key order, same counts. */
function reference(text: string) {
  const r = parseRecipientText(text);
  return {
    numbers: [...r.numbers].sort(byKey),
    kept: r.kept,
    invalid: r.invalid,
    ignored: r.ignored,
    duplicates: r.duplicates,
  };
}

function asStrings(list: RecipientList) {
  return {
    numbers: Array.from(list.keys, recipientKeyToString),
    kept: list.kept,
    invalid: list.invalid,
    ignored: list.ignored,
    duplicates: list.duplicates,
  };
}

/** A small seeded generator, so a failure replays. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = [
  '0',
  '1',
  '5',
  '9',
  '00',
  '123',
  '98765',
  '+',
  '-',
  '(',
  ')',
  '.',
  ' ',
  ',',
  ';',
  '\n',
  '\r\n',
  '\t',
  '\u00a0',
  '\u2003',
  '\u3000',
  '\ufeff',
  '\u2028',
  '\u0085', // NEL: not \s in JavaScript
  '\u180e', // Mongolian vowel separator: no longer \s
  '\u200b', // zero-width space: not \s
  '\v',
  '\f',
  'a',
  'x',
  '/',
  '#',
  '\u0661', // Arabic-Indic one: not a \d digit
  '\ud83d\ude00', // a surrogate pair
  '٫',
  '_',
];

function randomText(next: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    // Mostly digits, so many tokens come out valid and some repeat.
    out +=
      next() < 0.6 ? String(Math.floor(next() * 10)) : PIECES[Math.floor(next() * PIECES.length)];
  }
  return out;
}

describe('RecipientScanner: the same rules as parseRecipientText', () => {
  it('agrees on hand-picked cases', () => {
    for (const text of [
      '',
      ' , ; ',
      '9876543210, +91-98765-43210;9876543210\n(555)1234567,12,15551234567,0091.98765.43210',
      '1234567 123456 1234567890123456 123456789012345 0000000 00000000 0000000',
      '1000000,10000000,1000001,100000000000000,999999999999999',
      '+-().',
      '12a4567 1234567\u00a01234567\u2000765432\u200a7654321\u202f',
      '\ufeff1234567',
      '１２３４５６７', // full-width digits are not \d
      '123\ud83d\ude004567',
    ]) {
      expect(asStrings(scanRecipients(text)), JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it('counts names and headers as not numbers, apart from digit strings of the wrong length', () => {
    const list = scanRecipients('Name Phone\nAsha 9876543210\nRavi 12345 - 1234567890123456');
    expect(list).toMatchObject({ kept: 1, ignored: 5, invalid: 2, duplicates: 0 });
  });

  it('agrees on random text, whole or cut into random pieces', () => {
    const next = rng(42);
    for (let round = 0; round < 300; round++) {
      const text = randomText(next, Math.floor(next() * 400));
      const want = reference(text);
      expect(asStrings(scanRecipients(text)), JSON.stringify(text)).toEqual(want);
      const scanner = new RecipientScanner(4);
      for (let at = 0; at < text.length;) {
        const end = at + 1 + Math.floor(next() * 12);
        scanner.push(text.slice(at, end));
        at = end;
      }
      expect(asStrings(scanner.finish()), JSON.stringify(text)).toEqual(want);
    }
  });

  it('keys sort by length then value, leading zeros kept, as the web parser encodes them', () => {
    const numbers = [
      '0000001',
      '1000000',
      '10000000',
      '1000001',
      '999999999999999',
      '000000000000000',
    ];
    const list = scanRecipients(numbers.join(' '));
    expect(Array.from(list.keys, recipientKeyToString)).toEqual([...numbers].sort(byKey));
    // The contract's encoding: (digits - 7) * 1e15 + value.
    expect(scanRecipients('0012345678').keys[0]).toBe(3 * 1e15 + 12345678);
  });

  it('digests the kept set, whatever the order, separators and duplicates', async () => {
    const a = await recipientsDigest(scanRecipients('1234567, 7654321'));
    expect(await recipientsDigest(scanRecipients('7654321\n1234567;1234567 12'))).toBe(a);
    expect(await recipientsDigest(scanRecipients('1234567'))).not.toBe(a);
  });
});

describe('recipientCopyChunks: binary COPY rows', () => {
  it('writes the header, one tuple per key and the trailer', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const list = scanRecipients('5551234567 0012345 999999999999999');
    const data = Buffer.concat([...recipientCopyChunks(id, list.keys)]);
    expect(data.subarray(0, 11).toString('latin1')).toBe('PGCOPY\n\xff\r\n\0');
    let at = 19;
    const rows: [string, string][] = [];
    while (data.readInt16BE(at) !== -1) {
      expect(data.readInt16BE(at)).toBe(2);
      expect(data.readInt32BE(at + 2)).toBe(16);
      const uuid = data.subarray(at + 6, at + 22).toString('hex');
      const len = data.readInt32BE(at + 22);
      rows.push([uuid, data.subarray(at + 26, at + 26 + len).toString('latin1')]);
      at += 26 + len;
    }
    expect(at + 2).toBe(data.length);
    const hex = id.replace(/-/g, '');
    expect(rows).toEqual([
      [hex, '0012345'],
      [hex, '5551234567'],
      [hex, '999999999999999'],
    ]);
    expect(list.keys.length).toBe(3);
  });
});
