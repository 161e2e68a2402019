import { describe, expect, it } from 'vitest';
import { CreateCreditBodySchema, HistoryQuerySchema } from './credits.js';

describe('HistoryQuerySchema', () => {
  it('treats empty strings as unset', () => {
    const q = HistoryQuerySchema.parse({ startDate: '', userEmail: '', creditType: '' });
    expect(q).toMatchObject({ startDate: undefined, userEmail: undefined, limit: 50, tzOffset: 0 });
  });

  it('refuses impossible and malformed dates, and a start after the end', () => {
    for (const bad of ['2024-02-31', '2024-13-01', 'abc', '2024-2-1']) {
      expect(HistoryQuerySchema.safeParse({ startDate: bad }).success).toBe(false);
    }
    expect(HistoryQuerySchema.safeParse({ startDate: '2024-02-29' }).success).toBe(true);
    const order = HistoryQuerySchema.safeParse({ startDate: '2024-03-02', endDate: '2024-03-01' });
    expect(order.error?.issues[0]?.message).toBe('Start Date must not be after End Date.');
  });
});

describe('CreateCreditBodySchema', () => {
  it('turns the rate into integer paise', () => {
    const b = CreateCreditBodySchema.parse({
      to: 'A@B.co',
      creditType: 'With DP - domestic',
      count: 3,
      rate: 0.29,
      type: 'Added',
    });
    expect(b).toMatchObject({ to: 'a@b.co', rate: 29, count: 3 });
  });
});
