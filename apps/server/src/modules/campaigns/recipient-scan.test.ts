import { describe, expect, it } from 'vitest';
import { RECIPIENT_SEPARATORS, recipientKeyToString } from '@herald/contract';
import { RECIPIENT_CASES } from '@herald/contract/recipient-cases';
import { recipientCopyChunks } from './recipient-copy.js';
import {
  RecipientScanner,
  recipientsDigest,
  scanRecipients,
  type RecipientList,
} from './recipient-scan.js';

/** By length, then value (byte order within one length): the scanner's key order. */
const byKey = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

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

/** Spaces that join pieces of one line (the rest of \s separates like a line break). */
const SPACES = /[ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;

function randomDigits(next: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(Math.floor(next() * 10));
  return out;
}

/**
 * `digits` as people write them: a '+' maybe, then pieces of 1 to 6 digits apart by spaces
 * (some of them no-break, some around a dash), a piece maybe in brackets or with a dash or a
 * dot inside.
 */
function writeInPieces(next: () => number, digits: string): string {
  const spaces = [' ', '  ', '\u00a0', '\u202f', ' - '];
  let out = next() < 0.3 ? '+' : '';
  for (let at = 0; at < digits.length;) {
    const len = 1 + Math.floor(next() * 6);
    let piece = digits.slice(at, at + len);
    const r = next();
    if (r < 0.15) piece = `(${piece})`;
    else if (r < 0.3 && piece.length > 1) piece = `${piece.slice(0, 1)}-${piece.slice(1)}`;
    else if (r < 0.4 && piece.length > 1) piece = `${piece.slice(0, 1)}.${piece.slice(1)}`;
    if (at > 0) out += spaces[Math.floor(next() * spaces.length)];
    out += piece;
    at += len;
  }
  return out;
}

function randomText(next: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    // Mostly digits, so many tokens come out valid and some repeat.
    out +=
      next() < 0.6 ? String(Math.floor(next() * 10)) : PIECES[Math.floor(next() * PIECES.length)];
  }
  return out;
}

describe('RecipientScanner: the recipient rules', () => {
  // The same table runs through the web app's parser (campaigns recipients/scan-text.test.ts).
  for (const c of RECIPIENT_CASES) {
    it(`gives the shared table's answer: ${c.name}`, () => {
      expect(asStrings(scanRecipients(c.text))).toEqual({
        numbers: c.numbers,
        kept: c.numbers.length,
        invalid: c.invalid.length,
        ignored: c.ignored,
        duplicates: c.duplicates,
      });
    });
  }

  it('reads random text the same whole or cut into random pieces', () => {
    const next = rng(42);
    for (let round = 0; round < 300; round++) {
      const text = randomText(next, Math.floor(next() * 400));
      const whole = asStrings(scanRecipients(text));
      const scanner = new RecipientScanner(4);
      for (let at = 0; at < text.length;) {
        const end = at + 1 + Math.floor(next() * 12);
        scanner.push(text.slice(at, end));
        at = end;
      }
      expect(asStrings(scanner.finish()), JSON.stringify(text)).toEqual(whole);
    }
  });

  it('counts every token once when no space joins pieces', () => {
    const next = rng(7);
    for (let round = 0; round < 300; round++) {
      const text = randomText(next, Math.floor(next() * 400)).replace(SPACES, '\n');
      const { kept, invalid, ignored, duplicates } = scanRecipients(text);
      const tokens = text.split(RECIPIENT_SEPARATORS).filter(Boolean).length;
      expect(kept + invalid + ignored + duplicates, JSON.stringify(text)).toBe(tokens);
    }
  });

  it('reads a number written in short pieces as that number, and full numbers apart', () => {
    const next = rng(9);
    for (let round = 0; round < 500; round++) {
      const digits = randomDigits(next, 7 + Math.floor(next() * 9));
      const written = writeInPieces(next, digits);
      const a = randomDigits(next, 7 + Math.floor(next() * 9));
      const b = randomDigits(next, 7 + Math.floor(next() * 9));
      const list = scanRecipients(`${written}\n${a} ${b}`);
      const expected = [...new Set([digits, a, b])].sort(byKey);
      expect(Array.from(list.keys, recipientKeyToString), written).toEqual(expected);
      expect([list.invalid, list.ignored]).toEqual([0, 0]);
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
