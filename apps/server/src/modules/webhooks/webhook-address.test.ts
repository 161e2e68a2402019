import { describe, expect, it } from 'vitest';
import { isPublicAddress, resolveWebhookHost } from './webhook-address.js';
import { parseRetryAfter } from './webhook-sender.js';
import { retryDelayMs } from './webhook-delivery.js';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    'not-an-ip',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'accepts %s',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );
});

describe('resolveWebhookHost', () => {
  it('resolves names and literals, refusing private ones unless allowed', async () => {
    expect(await resolveWebhookHost('https://localhost/x', false)).toEqual({
      ok: false,
      reason: 'private',
    });
    expect(await resolveWebhookHost('https://127.0.0.1/x', true)).toEqual({
      ok: true,
      address: '127.0.0.1',
      family: 4,
    });
    expect(await resolveWebhookHost('https://[::1]:8443/x', false)).toEqual({
      ok: false,
      reason: 'private',
    });
    expect(await resolveWebhookHost('https://no-such-host.invalid/x', false)).toEqual({
      ok: false,
      reason: 'unresolvable',
    });
  });
});

describe('retries', () => {
  it('follows the Standard Webhooks schedule and stops after the eighth attempt', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((a) => retryDelayMs(a, null))).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(retryDelayMs(8, null)).toBeNull();
    expect(retryDelayMs(1, 60_000)).toBe(60_000);
    expect(retryDelayMs(2, 1_000)).toBe(300_000);
    expect(retryDelayMs(1, 1e12)).toBe(24 * 3_600_000);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });
});
