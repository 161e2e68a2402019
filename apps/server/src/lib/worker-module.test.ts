import { execFileSync } from 'node:child_process';
import { scryptSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { ScryptJob, ScryptReply } from './scrypt-workers.js';
import { startModuleWorker } from './worker-module.js';

const job: ScryptJob = {
  password: 'correct horse',
  salt: Buffer.from('0123456789abcdef'),
  keyLength: 16,
  N: 2 ** 10,
  r: 8,
  p: 1,
  maxmem: 64 * 1024 * 1024,
};
const expected = scryptSync(job.password, job.salt, 16, { N: job.N, r: 8, p: 1 });

describe('startModuleWorker', () => {
  it('starts a *.thread.ts module from the sources (through tsx)', async () => {
    const worker = startModuleWorker(new URL('./scrypt.thread.ts', import.meta.url));
    try {
      worker.postMessage(job);
      const [reply] = (await once(worker, 'message')) as [ScryptReply];
      expect(Buffer.from(reply.key!)).toEqual(expected);
    } finally {
      await worker.terminate();
    }
  });

  it('starts the built <name>.thread.js beside a bundle, as build.mjs emits it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'herald-worker-'));
    try {
      const here = path.dirname(fileURLToPath(import.meta.url));
      await build({
        stdin: {
          contents:
            "import { nicedScryptRunner } from './scrypt-workers.ts';\n" +
            'const job = JSON.parse(process.argv[2]);\n' +
            "const key = await nicedScryptRunner()({ ...job, salt: Buffer.from(job.salt, 'hex') });\n" +
            "process.stdout.write(key.toString('hex'));\n" +
            // An idle worker's message listener keeps the process up (as it did with eval workers).
            'process.exit(0);\n',
          resolveDir: here,
          sourcefile: 'main.ts',
          loader: 'ts',
        },
        entryPoints: [{ in: path.join(here, 'scrypt.thread.ts'), out: 'scrypt.thread' }],
        outdir: dir,
        bundle: true,
        platform: 'node',
        format: 'esm',
        logLevel: 'silent',
      });
      writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
      const out = execFileSync(
        process.execPath,
        [path.join(dir, 'stdin.js'), JSON.stringify({ ...job, salt: job.salt.toString('hex') })],
        { encoding: 'utf8', timeout: 20_000 },
      );
      expect(out).toBe(expected.toString('hex'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a module that is not a *.thread.ts file', () => {
    expect(() => startModuleWorker(new URL('./scrypt-workers.ts', import.meta.url))).toThrow(
      /thread\.ts/,
    );
  });
});
