import { describe, expect, it } from 'vitest';
import { internationalDigits } from './phone-format.js';

describe('internationalDigits', () => {
  it('puts the domestic code in front of a national number, trunk zeros dropped', () => {
    expect(internationalDigits('9876543210', 'Normal Message - domestic', '91')).toBe(
      '919876543210',
    );
    expect(internationalDigits('09876543210', 'With DP - domestic', '91')).toBe('919876543210');
  });
  it('leaves numbers that carry a code, international types, and senders without the setting', () => {
    expect(internationalDigits('919876543210', 'Normal Message - domestic', '91')).toBe(
      '919876543210',
    );
    expect(internationalDigits('9779812345678', 'Normal Message - international', '91')).toBe(
      '9779812345678',
    );
    expect(internationalDigits('9876543210', 'Normal Message - domestic', undefined)).toBe(
      '9876543210',
    );
  });
});
