import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HS256 JSON Web Tokens with a pinned header: any other algorithm, `none` included, is refused
 * because the header must match byte for byte. Verified tokens are cached, so a request pays
 * one map lookup instead of an HMAC.
 */
export interface TokenClaims {
  sub: string;
  /** The user's token_version when issued; a higher version in the database revokes it. */
  tv: number;
  iat: number;
  exp: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const CACHE_MAX = 20_000;

export class TokenService {
  private readonly cache = new Map<string, TokenClaims>();

  constructor(
    private readonly secret: string,
    private readonly ttlSeconds: number,
  ) {}

  private sign(data: string): Buffer {
    return createHmac('sha256', this.secret).update(data).digest();
  }

  /** A keyed hash for short secrets stored at rest (OTPs): useless without the server secret. */
  mac(data: string): string {
    return this.sign(data).toString('base64url');
  }

  issue(sub: string, tv: number, now = Date.now()): string {
    const iat = Math.floor(now / 1000);
    const payload = Buffer.from(
      JSON.stringify({ sub, tv, iat, exp: iat + this.ttlSeconds }),
    ).toString('base64url');
    const data = `${HEADER}.${payload}`;
    return `${data}.${this.sign(data).toString('base64url')}`;
  }

  verify(token: string, now = Date.now()): TokenClaims | null {
    const cached = this.cache.get(token);
    if (cached) {
      if (cached.exp * 1000 > now) return cached;
      this.cache.delete(token);
      return null;
    }
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== HEADER) return null;
    const sig = Buffer.from(parts[2]!, 'base64url');
    const expected = this.sign(`${parts[0]}.${parts[1]}`);
    if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) return null;
    let claims: TokenClaims;
    try {
      claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as TokenClaims;
    } catch {
      return null;
    }
    if (
      typeof claims.sub !== 'string' ||
      !Number.isInteger(claims.tv) ||
      !Number.isInteger(claims.exp) ||
      claims.exp * 1000 <= now
    ) {
      return null;
    }
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(token, claims);
    return claims;
  }
}
