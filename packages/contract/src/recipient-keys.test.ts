import { describe, expect, it } from 'vitest';
import {
  encodeRecipientKey,
  recipientKeyOf,
  recipientKeysToStrings,
  recipientKeyToString,
  writeRecipientKey,
} from './recipient-keys.js';

/** By length, then value (byte order within one length): the order keys must sort in. */
const byKey = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

describe('recipient keys', () => {
  it('encode the digit count and the value', () => {
    expect(encodeRecipientKey(7, 0)).toBe(0);
    expect(recipientKeyOf('0012345678')).toBe(3 * 1e15 + 12345678);
    expect(recipientKeyOf('999999999999999')).toBe(8e15 + 1e15 - 1);
    expect(recipientKeyOf('999999999999999')).toBeLessThan(2 ** 53);
  });

  it('give back the digits, leading zeros restored, at the edges of every length', () => {
    const numbers: string[] = [];
    for (let d = 7; d <= 15; d++) {
      numbers.push('0'.repeat(d), `1${'0'.repeat(d - 1)}`, '9'.repeat(d), `0${'9'.repeat(d - 1)}`);
      numbers.push(`${'12345678901234'.slice(0, d - 1)}7`, `${'0'.repeat(d - 7)}1234567`);
    }
    for (const n of numbers) expect(recipientKeyToString(recipientKeyOf(n)), n).toBe(n);
  });

  it('order numerically as the digit strings order by length, then bytes', () => {
    const numbers = ['1000000', '0000001', '10000000', '1000001', '999999999999999', '0000000'];
    const keys = Float64Array.from(numbers, recipientKeyOf).sort();
    expect(recipientKeysToStrings(keys)).toEqual([...numbers].sort(byKey));
  });

  it('write ASCII digits in place and say how many', () => {
    const out = new Uint8Array(20).fill(0x2c);
    expect(writeRecipientKey(recipientKeyOf('0098765432100'), out, 3)).toBe(13);
    expect(String.fromCharCode(...out)).toBe(',,,0098765432100,,,,');
  });

  it('round-trip random numbers of every length', () => {
    let s = 7;
    const next = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    for (let i = 0; i < 2000; i++) {
      const d = 7 + Math.floor(next() * 9);
      let n = '';
      while (n.length < d) n += String(Math.floor(next() * 10));
      expect(recipientKeyToString(recipientKeyOf(n))).toBe(n);
    }
  });
});
