import { createHash, randomBytes } from 'node:crypto';
import {
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  API_KEY_RANDOM_LENGTH,
  type ApiKeyKind,
} from '@herald/contract';

/** API keys' secrets (docs/api.md, Keys and hashing): made, recognised and hashed here only. */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The largest multiple of 62 a byte reaches: bytes above it are dropped, so no digit is likelier. */
const BYTE_LIMIT = 62 * 4;

/** `hk_<kind>_` and 43 base62 characters from the system's CSPRNG (256 bits). */
export function newApiKey(kind: ApiKeyKind): string {
  let random = '';
  while (random.length < API_KEY_RANDOM_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte >= BYTE_LIMIT) continue;
      random += BASE62[byte % 62];
      if (random.length === API_KEY_RANDOM_LENGTH) break;
    }
  }
  return `${API_KEY_PREFIX}${kind}_${random}`;
}

/** Whether a bearer credential is meant as an API key rather than a session token. */
export function looksLikeApiKey(credential: string): boolean {
  return credential.startsWith(API_KEY_PREFIX);
}

export function isWellFormedApiKey(credential: string): boolean {
  return API_KEY_PATTERN.test(credential);
}

/**
 * SHA-256 of the whole key. A key is 256 random bits, so no guessing can walk back a plain hash
 * (a slow password hash would only cost every request); the row is found by this hash.
 */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
