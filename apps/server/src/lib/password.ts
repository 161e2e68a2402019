import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import os from 'node:os';

/**
 * scrypt password hashing at OWASP strength (N=2^17, r=8, p=1 by default), stored with its
 * parameters as `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` so they can be raised later.
 * At most (cores - 1) hashes run at once; the rest queue, so a login storm cannot take every
 * libuv thread and core from the rest of the server.
 */
const KEY_LEN = 32;
const R = 8;
const P = 1;

function scryptAsync(pw: string, salt: Buffer, ln: number): Promise<Buffer> {
  const opts: ScryptOptions = { N: 2 ** ln, r: R, p: P, maxmem: 256 * 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(pw.normalize('NFKC'), salt, KEY_LEN, opts, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export class PasswordHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly limit: number;
  private dummy: Promise<string> | undefined;

  constructor(
    private readonly cost: number,
    limit = Math.max(1, os.availableParallelism() - 1),
  ) {
    this.limit = limit;
  }

  private async slot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await this.slot(() => scryptAsync(password, salt, this.cost));
    return `$scrypt$ln=${this.cost},r=${R},p=${P}$${salt.toString('base64')}$${key.toString('base64')}`;
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const m = /^\$scrypt\$ln=(\d+),r=8,p=1\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored);
    if (!m) return false;
    const expected = Buffer.from(m[3]!, 'base64');
    const key = await this.slot(() => scryptAsync(password, Buffer.from(m[2]!, 'base64'), +m[1]!));
    return key.length === expected.length && timingSafeEqual(key, expected);
  }

  /** Spends the same time as a real verify, so an unknown email is not told apart by timing. */
  async verifyDummy(password: string): Promise<false> {
    this.dummy ??= this.hash(randomBytes(12).toString('hex'));
    await this.verify(password, await this.dummy);
    return false;
  }

  needsRehash(stored: string): boolean {
    const m = /^\$scrypt\$ln=(\d+),/.exec(stored);
    return !m || Number(m[1]) < this.cost;
  }
}

/** A strong random password for Add User when none is given: 16 chars, no look-alikes. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(16);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
