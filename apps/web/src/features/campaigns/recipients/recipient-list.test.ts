import { describe, expect, it } from 'vitest';
import { MAX_RECIPIENTS } from '@herald/contract';
import { addScan, listOf, type RecipientScan } from './recipient-list';

const keys = (...n: number[]) => Float64Array.from(n);
const scan = (k: Float64Array, invalid = 0, duplicates = 0, ignored = 0): RecipientScan => ({
  keys: k,
  kept: k.length,
  invalid,
  invalidEntries: Array.from({ length: invalid }, (_, i) => String(i)),
  invalidDigits: Array.from({ length: invalid }, () => 1),
  ignored,
  duplicates,
});

describe('addScan', () => {
  it('counts as kept only the numbers new to the list', () => {
    const r = addScan(keys(1, 3, 5), scan(keys(2, 3, 4, 5), 2, 1, 6));
    expect([...r.keys]).toEqual([1, 2, 3, 4, 5]);
    expect([r.kept, r.invalid, r.ignored, r.duplicates, r.overLimit]).toEqual([2, 2, 6, 3, false]);
  });

  it('takes a scan into an empty list as it is', () => {
    const k = keys(7, 8);
    const r = addScan(new Float64Array(0), scan(k, 1, 4));
    expect(r.keys).toBe(k);
    expect([r.kept, r.invalid, r.duplicates]).toEqual([2, 1, 4]);
  });

  it('says when the list passes the limit', () => {
    const big = new Float64Array(MAX_RECIPIENTS).map((_, i) => i * 2);
    expect(addScan(big, scan(keys(1))).overLimit).toBe(true);
    expect(addScan(big, scan(keys(0))).overLimit).toBe(false);
  });
});

describe('listOf', () => {
  it('is the added numbers, plus the typed ones while the box holds them', () => {
    const added = keys(1, 2);
    expect(listOf(added, null)).toBe(added);
    expect([...listOf(added, scan(keys(2, 9)))]).toEqual([1, 2, 9]);
  });
});
