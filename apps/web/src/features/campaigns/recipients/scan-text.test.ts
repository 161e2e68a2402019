import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  isNotANumber,
  normalizeRecipient,
  RECIPIENT_SEPARATORS,
  recipientKeysToStrings,
  encodeRecipientKey,
} from '@herald/contract';
import { RECIPIENT_CASES } from '@herald/contract/recipient-cases';
import { mergeKeys, sortKeys } from './keys';
import { parseCsvBytes, parseTextBytes } from './scan-text';

const enc = new TextEncoder();
const sorted = (a: string[]) => [...a].sort();

const digitsOf = (len: number) =>
  fc
    .array(fc.constantFrom(...'0123456789'), { minLength: len, maxLength: len })
    .map((d) => d.join(''));

/** Token soups: numbers of interesting lengths (leading zeros included), noise, separators. */
const piece = fc.oneof(
  fc.constantFrom(6, 7, 8, 10, 12, 15, 16).chain(digitsOf),
  fc.constantFrom('0987654321', '987654321', '0000000', '+91 98765 43210', '(123) 456-7890'),
  fc.constantFrom('+', '-', '(', ')', '.', '"', 'a', 'x1', 'é', '١٢٣'),
  fc.constantFrom(' ', ',', ';', '\n', '\r\n', '\t', '\u00a0', '\u2028', '\u3000', '\ufeff', ',,'),
);
const soup = fc.array(piece, { maxLength: 60 }).map((p) => p.join(''));

/** Spaces that join pieces of one line (the rest of \s separates like a line break). */
const SPACES = /[ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;

/**
 * A number of 7–15 digits and how people write it: a '+' maybe, then pieces of 1 to 6 digits
 * apart by spaces (some no-break, some around a dash), a piece maybe in brackets.
 */
const written = fc
  .integer({ min: 7, max: 15 })
  .chain(digitsOf)
  .chain((digits) =>
    fc
      .tuple(
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 15, maxLength: 15 }),
        fc.array(fc.constantFrom(' ', '  ', '\u00a0', '\u202f', ' - '), {
          minLength: 15,
          maxLength: 15,
        }),
        fc.array(fc.boolean(), { minLength: 15, maxLength: 15 }),
      )
      .map(([plus, lengths, spaces, brackets]): [string, string] => {
        let text = plus ? '+' : '';
        for (let at = 0, k = 0; at < digits.length; k++) {
          const piece = digits.slice(at, at + (lengths[k] as number));
          if (at > 0) text += spaces[k] as string;
          text += brackets[k] ? `(${piece})` : piece;
          at += piece.length;
        }
        return [digits, text];
      }),
  );

/** The CSV rule written over strings: cells split on , ; CR LF; spaces and quotes removed. */
function csvReference(text: string) {
  const seen = new Set<string>();
  let invalid = 0;
  let ignored = 0;
  let duplicates = 0;
  for (const raw of text.split(/[,;\r\n]+/)) {
    const cell = raw.replace(/[\s"]/g, '');
    if (!cell) continue;
    const n = normalizeRecipient(cell);
    if (n === null && isNotANumber(cell)) ignored++;
    else if (n === null) invalid++;
    else if (seen.has(n)) duplicates++;
    else seen.add(n);
  }
  return { numbers: [...seen], kept: seen.size, invalid, ignored, duplicates };
}

describe('scanText: the recipient rules', () => {
  // The same table runs through the server's parser (campaigns recipient-scan.test.ts).
  for (const c of RECIPIENT_CASES) {
    it(`gives the shared table's answer: ${c.name}`, () => {
      const got = parseTextBytes(enc.encode(c.text));
      expect(got.invalidEntries.length).toBe(got.invalid);
      expect({
        numbers: recipientKeysToStrings(got.keys),
        kept: got.kept,
        invalid: got.invalidEntries,
        ignored: got.ignored,
        duplicates: got.duplicates,
      }).toEqual({
        numbers: c.numbers,
        kept: c.numbers.length,
        invalid: c.invalid,
        ignored: c.ignored,
        duplicates: c.duplicates,
      });
    });
  }

  it('counts every token of random token soups once when no space joins pieces', () => {
    fc.assert(
      fc.property(soup, (spaced) => {
        const text = spaced.replace(SPACES, '\n');
        const got = parseTextBytes(enc.encode(text));
        const tokens = text.split(RECIPIENT_SEPARATORS).filter(Boolean);
        expect(got.kept + got.invalid + got.ignored + got.duplicates).toBe(tokens.length);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps only normalised numbers and lists each invalid entry as written', () => {
    fc.assert(
      fc.property(soup, (text) => {
        const got = parseTextBytes(enc.encode(text));
        for (const n of recipientKeysToStrings(got.keys)) expect(normalizeRecipient(n)).toBe(n);
        expect(got.invalidEntries.length).toBe(got.invalid);
        got.invalidEntries.forEach((entry, i) => {
          expect(text).toContain(entry);
          expect(isNotANumber(entry)).toBe(false);
          expect(entry.replace(/\D/g, '').length).toBe(got.invalidDigits[i]);
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a number written in short pieces as that number, and full numbers apart', () => {
    fc.assert(
      fc.property(written, digitsOf(10), digitsOf(12), ([digits, text], a, b) => {
        const got = parseTextBytes(enc.encode(`${text}\n${a} ${b}`));
        expect(sorted(recipientKeysToStrings(got.keys))).toEqual(
          sorted([...new Set([digits, a, b])]),
        );
        expect([got.invalid, got.ignored]).toEqual([0, 0]);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps leading zeros apart', () => {
    const got = parseTextBytes(enc.encode('0987654321 987654321 0987654321 000000000000000'));
    expect(recipientKeysToStrings(got.keys)).toEqual([
      '987654321',
      '0987654321',
      '000000000000000',
    ]);
    expect(got.duplicates).toBe(1);
  });

  it('joins spaced pieces into numbers and lists what stays invalid as written', () => {
    const got = parseTextBytes(enc.encode('+91 98765 43210, (123) 456-7890;abc\n12345\n12 34'));
    expect(recipientKeysToStrings(got.keys)).toEqual(['1234567890', '919876543210']);
    expect(got.invalidEntries).toEqual(['12345', '12 34']);
    expect(got.invalidDigits).toEqual([5, 4]);
    expect(got.ignored).toBe(1);
  });
});

describe('scanCsv', () => {
  it('agrees with the CSV rule on random soups', () => {
    fc.assert(
      fc.property(soup, (text) => {
        const ref = csvReference(text);
        const got = parseCsvBytes(enc.encode(text));
        expect(sorted(recipientKeysToStrings(got.keys))).toEqual(sorted(ref.numbers));
        expect([got.kept, got.invalid, got.ignored, got.duplicates]).toEqual([
          ref.kept,
          ref.invalid,
          ref.ignored,
          ref.duplicates,
        ]);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a BOM, CRLF, quoted cells and empty lines', () => {
    const csv =
      '\ufeffphone;name\r\n"+91 98765 43210";"Asha"\r\n\r\n9876543210,\r\n"0987654321"\r\n\r\n';
    const got = parseCsvBytes(enc.encode(csv));
    expect(sorted(recipientKeysToStrings(got.keys))).toEqual([
      '0987654321',
      '919876543210',
      '9876543210',
    ]);
    expect(
      parseCsvBytes(enc.encode('a;" 12345 ";1234567890123456\n(91) 23')).invalidEntries,
    ).toEqual(['12345', '1234567890123456', '(91) 23']);
    // The header (phone, name) and the name Asha are not numbers, not invalid numbers.
    expect(got.ignored).toBe(3);
    expect(got.invalid).toBe(0);
    expect(got.duplicates).toBe(0);
  });
});

describe('sortKeys', () => {
  it('radix-sorts keys like Float64Array.prototype.sort', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.integer({ min: 7, max: 15 }), fc.double({ min: 0, max: 1, noNaN: true })),
          {
            minLength: 4096,
            maxLength: 6000,
          },
        ),
        (pairs) => {
          const keys = Float64Array.from(pairs, ([d, f]) =>
            encodeRecipientKey(d, Math.floor(f * (10 ** d - 1))),
          );
          expect(sortKeys(keys.slice())).toEqual(keys.slice().sort());
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('mergeKeys', () => {
  it('dedupes against existing recipients', () => {
    const a = parseTextBytes(enc.encode('1111111 3333333 5555555'));
    const b = parseTextBytes(enc.encode('2222222 3333333 6666666 5555555'));
    const m = mergeKeys(a.keys, b.keys);
    expect(recipientKeysToStrings(m.keys)).toEqual([
      '1111111',
      '2222222',
      '3333333',
      '5555555',
      '6666666',
    ]);
    expect(m.duplicates).toBe(2);
  });
});

describe('1,000,000 numbers', () => {
  it('parses pasted text and CSV with the right counts', () => {
    const parts: string[] = [];
    for (let i = 0; i < 1_000_000; i++) parts.push(String(9_000_000_000 + ((i * 7919) % 900_000)));
    const text = parts.join('\n') + '\nbad\n123\n';
    for (const parse of [parseTextBytes, parseCsvBytes]) {
      const got = parse(enc.encode(text));
      expect(got.kept).toBe(900_000);
      expect(got.duplicates).toBe(100_000);
      expect(got.invalid).toBe(1); // 123
      expect(got.ignored).toBe(1); // bad
    }
  });
});
