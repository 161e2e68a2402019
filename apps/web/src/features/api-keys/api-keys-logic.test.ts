import { describe, expect, it } from 'vitest';
import { API_KEY_NAME_MAX, server } from '@herald/contract';
import { checkKeyForm, kindLabel, maskedKey } from './api-keys-logic';

describe('checkKeyForm', () => {
  it('answers the trimmed body the server takes', () => {
    expect(checkKeyForm('  CI  ', 'test')).toEqual({ name: 'CI', kind: 'test' });
  });

  it('answers the server’s own messages for what it would refuse', () => {
    expect(checkKeyForm('   ', 'live')).toEqual({ error: server.apiKeyNameRequired });
    expect(checkKeyForm('x'.repeat(API_KEY_NAME_MAX + 1), 'live')).toEqual({
      error: server.apiKeyNameTooLong(API_KEY_NAME_MAX),
    });
  });
});

describe('how a key is shown', () => {
  it('names the kind and masks all but the last four characters', () => {
    expect(kindLabel('live')).toBe('Live');
    expect(maskedKey('test', 'a1B2')).toBe('hk_test_…a1B2');
  });
});
