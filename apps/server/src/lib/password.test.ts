import { describe, expect, it } from 'vitest';
import { server as msg } from '@herald/contract';
import { AppError } from './app-error.js';
import { PasswordHasher, generatePassword } from './password.js';
import { nicedScryptRunner, type ScryptRunner } from './scrypt-workers.js';

/** Counts the scrypt calls in flight, seen from outside the hasher. */
const scrypts = { running: 0, peak: 0 };
const realRunner = nicedScryptRunner();
const counting: ScryptRunner = async (job) => {
  scrypts.running++;
  scrypts.peak = Math.max(scrypts.peak, scrypts.running);
  try {
    return await realRunner(job);
  } finally {
    scrypts.running--;
  }
};

/** The most scrypt calls that ran at once while `work` ran. */
async function peakDuring(work: () => Promise<unknown>): Promise<number> {
  scrypts.peak = 0;
  await work();
  return scrypts.peak;
}

describe('PasswordHasher', () => {
  it('hashes at the OWASP floor (N=2^17, r=8, p=1) and verifies', async () => {
    const hasher = new PasswordHasher(17);
    const hash = await hasher.hash('correct horse battery');
    expect(hash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
    await expect(hasher.verify('correct horse battery', hash)).resolves.toBe(true);
    await expect(hasher.verify('correct horse batter', hash)).resolves.toBe(false);
  });

  it('salts each hash and keeps long and non-ASCII passwords whole', async () => {
    const hasher = new PasswordHasher(10);
    const pw = 'pässwörd 密码 🔑'.repeat(10);
    const [a, b] = await Promise.all([hasher.hash(pw), hasher.hash(pw)]);
    expect(a).not.toBe(b);
    await expect(hasher.verify(pw, a)).resolves.toBe(true);
    await expect(hasher.verify(pw.slice(0, -1), a)).resolves.toBe(false);
  });

  it('runs at most `limit` hashes at once', async () => {
    const one = new PasswordHasher(12, 1, 8, counting);
    const hashes: string[] = [];
    const peakOne = await peakDuring(async () => {
      hashes.push(...(await Promise.all(['a', 'b', 'c', 'd'].map((p) => one.hash(p)))));
    });
    expect(hashes).toHaveLength(4);
    expect(peakOne).toBe(1);
    const two = new PasswordHasher(12, 2, 16, counting);
    const peakTwo = await peakDuring(() =>
      Promise.all(['a', 'b', 'c', 'd'].map((p) => two.verify(p, hashes[0]!))),
    );
    expect(peakTwo).toBe(2);
  });

  it('rests as long as a hash took before a waiting one starts, and not when none waits', async () => {
    const starts: number[] = [];
    const slow: ScryptRunner = async () => {
      starts.push(performance.now());
      await new Promise((r) => setTimeout(r, 40));
      return Buffer.alloc(32);
    };
    const hasher = new PasswordHasher(12, 1, 8, slow);
    await Promise.all(['a', 'b', 'c'].map((p) => hasher.hash(p)));
    // Each waiting hash starts a hash's time (40 ms) plus a rest as long after the one before.
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(75);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(75);
    // Alone, a hash starts at once.
    const before = performance.now();
    await hasher.hash('d');
    expect(starts[3]! - before).toBeLessThan(30);
  });

  it('refuses at once with 503 and Retry-After beyond `maxWaiting` waiting hashes', async () => {
    const hasher = new PasswordHasher(12, 1, 3);
    const extra = 4;
    const results = await Promise.allSettled(
      Array.from({ length: 1 + 3 + extra }, (_, i) => hasher.hash(`pw-${i}`)),
    );
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(refused).toHaveLength(extra);
    for (const err of refused) {
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 503, message: msg.serverBusy });
      expect(Number((err as AppError).headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1 + 3);
    // The queue drained: a new hash is taken again.
    await expect(hasher.hash('after')).resolves.toMatch(/^\$scrypt\$/);
  });

  it('does not keep a refused dummy hash, so unknown emails are verified again later', async () => {
    const hasher = new PasswordHasher(12, 1, 0);
    const blocker = hasher.hash('blocker');
    await expect(hasher.verifyDummy('pw')).rejects.toMatchObject({ status: 503 });
    await blocker;
    await expect(hasher.verifyDummy('pw')).resolves.toBe(false);
  });

  it('asks for a rehash when the stored cost is lower', async () => {
    const low = await new PasswordHasher(10).hash('pw');
    expect(new PasswordHasher(12).needsRehash(low)).toBe(true);
    expect(new PasswordHasher(10).needsRehash(low)).toBe(false);
    await expect(new PasswordHasher(12).verify('pw', low)).resolves.toBe(true);
  });

  it('rejects malformed stored hashes', async () => {
    await expect(new PasswordHasher(10).verify('pw', 'plain')).resolves.toBe(false);
  });

  it('generates strong passwords', () => {
    const a = generatePassword();
    expect(a).toMatch(/^[A-Za-z2-9]{16}$/);
    expect(generatePassword()).not.toBe(a);
  });
});
