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
      expect({
        numbers: recipientKeysToStrings(got.keys),
        kept: got.kept,
        invalid: got.invalid,
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

  it('counts every token of random token soups once, keeping only normalised numbers', () => {
    fc.assert(
      fc.property(soup, (text) => {
        const got = parseTextBytes(enc.encode(text));
        const tokens = text.split(RECIPIENT_SEPARATORS).filter(Boolean);
        expect(got.kept + got.invalid + got.ignored + got.duplicates).toBe(tokens.length);
        for (const n of recipientKeysToStrings(got.keys)) expect(normalizeRecipient(n)).toBe(n);
      }),
      { numRuns: 2000 },
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

  it('splits pasted text on spaces, so a spaced number is invalid pieces', () => {
    const got = parseTextBytes(enc.encode('+91 98765 43210, (123) 456-7890;abc\n12345'));
    // Spaces split "(123) 456-7890" into "(123)" and "456-7890" in pasted text.
    expect(recipientKeysToStrings(got.keys)).toEqual(['4567890']);
    // Invalid digit strings: +91, 98765, 43210, (123), 12345; 'abc' is not a number.
    expect(got.invalid).toBe(5);
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
