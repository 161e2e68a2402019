import { randomBytes, timingSafeEqual } from 'node:crypto';
import os from 'node:os';
import { busy } from './app-error.js';
import { nicedScryptRunner, type ScryptRunner } from './scrypt-workers.js';

/**
 * scrypt password hashing at OWASP strength (N=2^17, r=8, p=1 by default), stored with its
 * parameters as `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` so they can be raised later.
 * At most (cores - 1) hashes run at once, so a login storm cannot take every libuv thread and
 * core from the rest of the server; a bounded number more wait, and beyond that a hash is refused
 * at once with 503 and Retry-After, so an anonymous burst cannot make every login, password change
 * and Add User wait minutes behind it. The hashes themselves run on niced worker threads
 * (scrypt-workers.ts), so they take only the CPU the rest of the server leaves.
 */
const KEY_LEN = 32;
const R = 8;
const P = 1;

const MAXMEM = 256 * 1024 * 1024;

/**
 * Waiting hashes allowed per running one. A hash at the default cost takes about 0.4 s of one
 * core, so 8 waiting behind each slot is at most about 3 s of queue: a caller that gets in
 * answers within a few seconds, and a burst beyond that is told to come back instead of queuing.
 */
const WAITING_PER_SLOT = 8;
/**
 * While hashes wait, a slot rests as long as its last hash took before it takes the next: under a
 * login storm hashing uses at most half of its core (and of the memory bandwidth scrypt eats, which
 * lowering the thread's priority cannot hand back), so the rest of the app keeps its p99 within 2x
 * idle (docs/performance.md, login storm). A hash asked for when none waits starts at once.
 */
const REST_PER_HASH_MS = 1;
/** Weight of the newest hash in the running average of hash time that sizes Retry-After. */
const AVERAGE_WEIGHT = 0.2;

export class PasswordHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private averageMs = 0;
  private dummy: Promise<string> | undefined;

  constructor(
    private readonly cost: number,
    /** Hashes that run at once. */
    readonly limit = Math.max(1, os.availableParallelism() - 1),
    /** Hashes that may wait for a slot; one more is refused with 503. */
    readonly maxWaiting = limit * WAITING_PER_SLOT,
    private readonly runScrypt: ScryptRunner = nicedScryptRunner(),
    /** Rest (ms) per ms of hashing before a waiting hash starts; 0 in tests that count slots. */
    private readonly restPerHashMs = REST_PER_HASH_MS,
  ) {}

  private scrypt(password: string, salt: Buffer, ln: number): Promise<Buffer> {
    const job = { password: password.normalize('NFKC'), salt, keyLength: KEY_LEN, N: 2 ** ln };
    return this.runScrypt({ ...job, r: R, p: P, maxmem: MAXMEM });
  }

  /** Seconds until the queue as it stands has drained, from the average hash time (at least 1). */
  private retryAfterSeconds(): number {
    const queued = this.running + this.waiting.length;
    const perHash = (this.averageMs || 1000) * (1 + this.restPerHashMs);
    return Math.max(1, Math.ceil(((queued / this.limit) * perHash) / 1000));
  }

  /**
   * Refuses at once (503 with Retry-After) when a hash asked for now would be refused: a login
   * checks this first, so a storm the queue cannot take costs no database work either.
   */
  refuseIfFull(): void {
    if (this.running >= this.limit && this.waiting.length >= this.maxWaiting) {
      throw busy(this.retryAfterSeconds());
    }
  }

  private async slot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      this.refuseIfFull();
      await new Promise<void>((r) => this.waiting.push(r));
    }
    this.running++;
    const started = performance.now();
    try {
      return await work();
    } finally {
      const ms = performance.now() - started;
      this.averageMs = this.averageMs
        ? this.averageMs + AVERAGE_WEIGHT * (ms - this.averageMs)
        : ms;
      const next = this.waiting.shift();
      if (!next) this.running--;
      else setTimeout(() => (this.running--, next()), ms * this.restPerHashMs);
    }
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await this.slot(() => this.scrypt(password, salt, this.cost));
    return `$scrypt$ln=${this.cost},r=${R},p=${P}$${salt.toString('base64')}$${key.toString('base64')}`;
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const m = /^\$scrypt\$ln=(\d+),r=8,p=1\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored);
    if (!m) return false;
    const expected = Buffer.from(m[3]!, 'base64');
    const key = await this.slot(() => this.scrypt(password, Buffer.from(m[2]!, 'base64'), +m[1]!));
    return key.length === expected.length && timingSafeEqual(key, expected);
  }

  /** Spends the same time as a real verify, so an unknown email is not told apart by timing. */
  async verifyDummy(password: string): Promise<false> {
    // A refused dummy hash must not stay cached, or every unknown email would be refused.
    this.dummy ??= this.hash(randomBytes(12).toString('hex')).catch((err: unknown) => {
      this.dummy = undefined;
      throw err;
    });
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
