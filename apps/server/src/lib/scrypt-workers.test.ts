import { scryptSync } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nicedScryptRunner, type ScryptJob } from './scrypt-workers.js';

const job = (over: Partial<ScryptJob> = {}): ScryptJob => ({
  password: 'correct horse',
  salt: Buffer.from('0123456789abcdef'),
  keyLength: 32,
  N: 2 ** 12,
  r: 8,
  p: 1,
  maxmem: 256 * 1024 * 1024,
  ...over,
});

/** This process's threads with their nice values (Linux: field 19 of /proc/self/task/N/stat). */
function threadNices(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [Number(fields[16])];
    } catch {
      return []; // the thread ended while we read
    }
  });
}

describe('nicedScryptRunner', () => {
  it("derives the same key as Node's own scrypt", async () => {
    const run = nicedScryptRunner();
    const j = job();
    const expected = scryptSync(j.password, j.salt, 32, { N: j.N, r: 8, p: 1 });
    await expect(run(j)).resolves.toEqual(expected);
    // Again on the same (now idle) worker, and several at once on several workers.
    const keys = await Promise.all(['a', 'b', 'c'].map((password) => run(job({ password }))));
    for (const [i, password] of ['a', 'b', 'c'].entries()) {
      expect(keys[i]).toEqual(scryptSync(password, j.salt, 32, { N: j.N, r: 8, p: 1 }));
    }
  });

  it('rejects bad parameters and keeps working', async () => {
    const run = nicedScryptRunner();
    await expect(run(job({ N: 1000 }))).rejects.toThrow(/N|power|parameter/i);
    await expect(run(job())).resolves.toHaveLength(32);
  });

  it.runIf(existsSync('/proc/self/task'))(
    'hashes on a thread at nice 19 while the event loop keeps nice 0',
    async () => {
      const run = nicedScryptRunner();
      const niced = () => threadNices().filter((n) => n === 19).length;
      const before = niced();
      // A hash long enough to be seen running (about 0.1-0.2 s at 2^16).
      const hashing = run(job({ N: 2 ** 16 }));
      let seen = false;
      for (let i = 0; i < 200 && !seen; i++) {
        seen = niced() > before;
        if (!seen) await new Promise((r) => setTimeout(r, 5));
      }
      await hashing;
      expect(seen).toBe(true);
      // The process's main thread (the task whose id is the process id) was not lowered.
      const main = readFileSync('/proc/self/stat', 'utf8');
      expect(Number(main.slice(main.lastIndexOf(')') + 2).split(' ')[16])).toBeLessThan(19);
    },
  );
});
