import { describe, expect, it } from 'vitest';
import { PasswordHasher, generatePassword } from './password.js';

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
    const hasher = new PasswordHasher(12, 1);
    const hashes = await Promise.all(['a', 'b', 'c', 'd'].map((p) => hasher.hash(p)));
    expect(hashes).toHaveLength(4);
    expect(hasher.peakConcurrency).toBe(1);
    const two = new PasswordHasher(12, 2);
    await Promise.all(['a', 'b', 'c', 'd'].map((p) => two.hash(p)));
    expect(two.peakConcurrency).toBe(2);
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
