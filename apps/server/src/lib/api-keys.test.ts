import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '@herald/contract';
import { hashApiKey, isWellFormedApiKey, looksLikeApiKey, newApiKey } from './api-keys.js';

describe('API key secrets', () => {
  it('makes keys of the kind asked, in the documented form, each different', () => {
    const live = newApiKey('live');
    const test = newApiKey('test');
    expect(live).toMatch(/^hk_live_[0-9A-Za-z]{43}$/);
    expect(test).toMatch(/^hk_test_[0-9A-Za-z]{43}$/);
    const many = new Set(Array.from({ length: 200 }, () => newApiKey('live')));
    expect(many.size).toBe(200);
    for (const k of many) expect(API_KEY_PATTERN.test(k)).toBe(true);
  });

  it('tells a key from a session token and refuses a malformed one', () => {
    expect(looksLikeApiKey('hk_live_x')).toBe(true);
    expect(looksLikeApiKey('eyJhbGciOiJIUzI1NiJ9.e30.sig')).toBe(false);
    expect(isWellFormedApiKey('hk_live_x')).toBe(false);
    expect(isWellFormedApiKey(`hk_prod_${'a'.repeat(43)}`)).toBe(false);
    expect(isWellFormedApiKey(newApiKey('test'))).toBe(true);
  });

  it('hashes a key to the same 32 bytes every time, and another key to others', () => {
    const key = newApiKey('live');
    expect(hashApiKey(key)).toHaveLength(32);
    expect(hashApiKey(key).equals(hashApiKey(key))).toBe(true);
    expect(hashApiKey(key).equals(hashApiKey(newApiKey('live')))).toBe(false);
  });
});
