import { describe, expect, it } from 'vitest';
import { EMPTY_HISTORY_FILTERS, historyParams } from './get-history';

describe('historyParams', () => {
  it('leaves unset filters out and always sends tzOffset', () => {
    expect(historyParams(EMPTY_HISTORY_FILTERS, -330)).toEqual({ tzOffset: '-330' });
    expect(
      historyParams(
        { ...EMPTY_HISTORY_FILTERS, startDate: '2025-01-01', transactionType: 'Removed' },
        0,
      ),
    ).toEqual({ startDate: '2025-01-01', transactionType: 'Removed', tzOffset: '0' });
  });
});
