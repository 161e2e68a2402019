import { describe, expect, it } from 'vitest';
import { TokenService } from './tokens.js';

describe('TokenService', () => {
  const svc = new TokenService('s'.repeat(40), 60);

  it('issues and verifies', () => {
    const token = svc.issue('user-1', 3);
    expect(svc.verify(token)).toMatchObject({ sub: 'user-1', tv: 3 });
  });

  it('refuses expired tokens, even when cached', () => {
    const now = Date.now();
    const token = svc.issue('user-1', 0, now);
    expect(svc.verify(token, now)).not.toBeNull();
    expect(svc.verify(token, now + 61_000)).toBeNull();
  });

  it('refuses another secret, another header and tampering', () => {
    const token = svc.issue('user-1', 0);
    expect(new TokenService('t'.repeat(40), 60).verify(token)).toBeNull();
    const [h, p, s] = token.split('.');
    const hs512 = Buffer.from('{"alg":"HS512","typ":"JWT"}').toString('base64url');
    expect(svc.verify(`${hs512}.${p}.${s}`)).toBeNull();
    expect(svc.verify(`${h}.${p}.`)).toBeNull();
    expect(svc.verify(`${h}.${p}`)).toBeNull();
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url');
    expect(svc.verify(`${h}.${forged}.${s}`)).toBeNull();
  });
});
