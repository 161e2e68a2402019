import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatRupees, paiseToRupees, rupeesToPaise } from './money.js';

describe('money', () => {
  it('converts rupees to exact paise', () => {
    expect(rupeesToPaise(0.1)).toBe(10);
    expect(rupeesToPaise(0.29)).toBe(29); // 0.29 * 100 = 28.999… in floating point
    expect(rupeesToPaise('12.5')).toBe(1250);
    expect(rupeesToPaise(7)).toBe(700);
    expect(rupeesToPaise('0')).toBe(0);
  });

  it('refuses more than 2 decimals, negatives, exponents and junk', () => {
    for (const bad of [0.001, -1, '1e3', 'NaN', Infinity, '', '1.', '.5', '1,000']) {
      expect(rupeesToPaise(bad)).toBeNull();
    }
  });

  it('round-trips every paise amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (p) => {
        expect(rupeesToPaise(paiseToRupees(p))).toBe(p);
      }),
    );
  });

  it('formats rupees with 2 decimals, or N/A', () => {
    expect(formatRupees(1234.5)).toBe('₹1,234.50');
    expect(formatRupees(null)).toBe('N/A');
  });
});
