import { describe, expect, it } from 'vitest';
import { downloadName } from './download';

describe('downloadName', () => {
  it.each([
    ['attachment; filename="history-2025.xlsx"', 'history-2025.xlsx'],
    ['attachment; filename=plain.xlsx', 'plain.xlsx'],
    ['attachment; filename="a \\"b\\".xlsx"', 'a "b".xlsx'],
    [
      `attachment; filename="fallback.xlsx"; filename*=UTF-8''%E0%A4%B9%20ledger.xlsx`,
      'ह ledger.xlsx',
    ],
    [`attachment; filename*=UTF-8''c%20a.zip`, 'c a.zip'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment; filename=../../x.zip', 'x.zip'],
    ["attachment; filename*=UTF-8''%E0%A4", 'fallback.bin'],
    ['attachment', 'fallback.bin'],
    ['attachment; filename=""', 'fallback.bin'],
    ['attachment; filename=".."', 'fallback.bin'],
  ])('%s → %s', (header, name) => {
    expect(downloadName(header, 'fallback.bin')).toBe(name);
  });

  it('falls back without a header', () => {
    expect(downloadName(null, 'campaign_9.zip')).toBe('campaign_9.zip');
  });
});
