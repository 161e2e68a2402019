import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets Herald must keep and use again (a provider's access token, app secret, gateway
 * password), encrypted at rest with AES-256-GCM under one 32-byte key (docs/operations.md,
 * Secrets): `SECRETS_KEY`, or one generated once into the owner-only schema. Node's crypto does
 * the cipher; this file only fixes the layout, so a row read back is checked as well as opened.
 *
 * Sealed text: `v1.` + base64url(12-byte IV | 16-byte tag | ciphertext). Each seal draws a new
 * IV. The `context` (for example `provider:<id>:accessToken`) is authenticated with it, so a
 * sealed value copied into another row or field does not open there.
 */
const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_BYTES = 32;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== SECRET_KEY_BYTES) {
      throw new SecretBoxError(`The secrets key must be ${SECRET_KEY_BYTES} bytes.`);
    }
    this.#key = Buffer.from(key);
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The plain text; throws SecretBoxError for a value that was changed, or sealed elsewhere. */
  open(sealed: string, context: string): string {
    if (!sealed.startsWith(VERSION)) throw new SecretBoxError('Unknown sealed secret format.');
    const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('Sealed secret is too short.');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      const body = raw.subarray(IV_BYTES + TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('Sealed secret does not open with this key and context.');
    }
  }
}

/**
 * A key given as text: 64 hex digits, or 32 bytes in base64 or base64url (`openssl rand
 * -base64 32`). Anything else is refused, so a short or mistyped key never weakens the cipher.
 */
export function parseSecretKey(text: string): Buffer | undefined {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const key = Buffer.from(value.replace(/\+/g, '-').replace(/\//g, '_'), 'base64url');
    if (key.length === SECRET_KEY_BYTES) return key;
  }
  return undefined;
}
