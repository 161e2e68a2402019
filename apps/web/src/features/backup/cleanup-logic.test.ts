import { describe, expect, it } from 'vitest';
import { cleanupError, confirmText } from './cleanup-logic';

describe('cleanup form', () => {
  it("needs both dates, with the screen's message", () => {
    const msg = "Please select both a 'from' and 'to' date for cleanup.";
    expect(cleanupError({ dataType: 'users', fromDate: '', toDate: '' })).toBe(msg);
    expect(cleanupError({ dataType: 'users', fromDate: '2026-01-01', toDate: '' })).toBe(msg);
    expect(cleanupError({ dataType: 'users', fromDate: '', toDate: '2026-01-01' })).toBe(msg);
    expect(
      cleanupError({ dataType: 'campaigns', fromDate: '2026-01-01', toDate: '2026-01-31' }),
    ).toBeNull();
  });

  it('the confirm question names the type and range', () => {
    expect(
      confirmText({ dataType: 'transactions', fromDate: '2026-01-01', toDate: '2026-01-31' }),
    ).toContain('all transactions from 2026-01-01 to 2026-01-31');
  });
});
