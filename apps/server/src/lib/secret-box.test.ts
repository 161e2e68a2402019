import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseSecretKey, SecretBox, SecretBoxError } from './secret-box.js';

const key = randomBytes(32);

describe('SecretBox', () => {
  it('opens what it sealed, with a new IV each time and no plain text inside', () => {
    const box = new SecretBox(key);
    const a = box.seal('EAAG-secret-token', 'provider:1:accessToken');
    const b = box.seal('EAAG-secret-token', 'provider:1:accessToken');
    expect(a).not.toBe(b);
    expect(a.startsWith('v1.')).toBe(true);
    expect(Buffer.from(a.slice(3), 'base64url').toString('latin1')).not.toContain('secret');
    expect(box.open(a, 'provider:1:accessToken')).toBe('EAAG-secret-token');
    expect(box.open(box.seal('', 'x'), 'x')).toBe('');
    expect(box.open(box.seal('ünïcode ✓', 'x'), 'x')).toBe('ünïcode ✓');
  });

  it('refuses a changed value, another context and another key', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('password', 'provider:1:password');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1]! ^= 1;
    expect(() => box.open(`v1.${raw.toString('base64url')}`, 'provider:1:password')).toThrow(
      SecretBoxError,
    );
    expect(() => box.open(sealed, 'provider:2:password')).toThrow(SecretBoxError);
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'provider:1:password')).toThrow(
      SecretBoxError,
    );
    expect(() => box.open('plain text', 'provider:1:password')).toThrow(/format/);
    expect(() => box.open('v1.AAAA', 'provider:1:password')).toThrow(/too short/);
  });

  it('takes only a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(SecretBoxError);
  });
});

describe('parseSecretKey', () => {
  it('reads keys made by openssl in hex and base64', () => {
    const base64 = execFileSync('openssl', ['rand', '-base64', '32'], { encoding: 'utf8' });
    const hex = execFileSync('openssl', ['rand', '-hex', '32'], { encoding: 'utf8' });
    expect(parseSecretKey(base64)?.length).toBe(32);
    expect(parseSecretKey(hex)).toEqual(Buffer.from(hex.trim(), 'hex'));
    expect(parseSecretKey(randomBytes(32).toString('base64url'))?.length).toBe(32);
  });

  it('refuses short, long and mistyped keys', () => {
    expect(parseSecretKey('too-short')).toBeUndefined();
    expect(parseSecretKey(randomBytes(31).toString('hex'))).toBeUndefined();
    expect(parseSecretKey(randomBytes(48).toString('base64'))).toBeUndefined();
    expect(parseSecretKey(`${randomBytes(32).toString('hex').slice(0, 63)}g`)).toBeUndefined();
  });
});
