import { describe, expect, it } from 'vitest';
import { server } from '@herald/contract';
import { checkPhone, ownerFilterOptions, searchDigits, sourceLabel } from './suppressions-logic';

describe('the Suppression List’s rules', () => {
  it('checks a typed number as the server stores it', () => {
    expect(checkPhone(' +91 98765 43210 ')).toEqual({ phone: '919876543210' });
    expect(checkPhone('12345')).toEqual({ error: server.suppressionPhoneInvalid });
    expect(checkPhone('98765abc43')).toEqual({ error: server.suppressionPhoneInvalid });
  });

  it('searches by the digits typed, at most 15', () => {
    expect(searchDigits(' +91-987 ')).toBe('91987');
    expect(searchDigits('abc')).toBe('');
    expect(searchDigits('1234567890123456789')).toBe('123456789012345');
  });

  it('names sources and owners in the screen’s words', () => {
    expect(sourceLabel('keyword')).toBe('STOP reply');
    expect(sourceLabel('provider')).toBe('Provider');
    expect(ownerFilterOptions([{ id: 'u1', name: 'Asha', email: 'a@x.in' }])).toEqual([
      { value: 'u1', label: 'Asha (a@x.in)' },
    ]);
    expect(ownerFilterOptions()).toEqual([]);
  });
});
