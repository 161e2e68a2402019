// Login storm (docs/performance.md): a login storm must not starve the rest of the app. The p99 of
// a cheap authenticated endpoint at a fixed rate, idle and then during a storm of wrong logins sent
// faster than the password hasher can take them (bench/login-storm-runner.mjs), so its bounded
// queue fills and the excess is refused with 503 instead of waiting.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { LOAD, load } from './http.mjs';
import { root, sleep } from './lib.mjs';

const run = promisify(execFile);

export const STORM = {
  /** Wrong logins a second: at about 2.5 hashes/s per core, many times what can be hashed. */
  rate: Number(process.env.BENCH_LOGIN_STORM_RATE ?? 100),
  /** Unanswered logins at most, well past what the hash queue holds (8 per hashing core). */
  maxInFlight: Number(process.env.BENCH_LOGIN_STORM_IN_FLIGHT ?? 64),
  /** Loopback addresses the storm comes from (127.0.1.1 and up). */
  addresses: Number(process.env.BENCH_LOGIN_STORM_ADDRESSES ?? 64),
  /** Requests a second of the probe, idle and during the storm alike. */
  probeRate: Number(process.env.BENCH_LOGIN_STORM_PROBE_RATE ?? 200),
};

/**
 * Measures `probePath` (authenticated by `headers`) idle, then during the storm, each over
 * LOAD.warmup + LOAD.duration seconds; returns both probe runs and what the storm was answered.
 */
export async function measureLoginStorm(base, probePath, headers) {
  const probe = () => load(base + probePath, { headers, overallRate: STORM.probeRate });
  const idle = await probe();
  // The storm starts first so the queue is full when the probe's warm-up begins, and outlasts it.
  const seconds = 1 + LOAD.warmup + LOAD.duration + 1;
  const settings = { base, seconds, ...STORM };
  const storming = run(process.execPath, [
    path.join(root, 'bench/login-storm-runner.mjs'),
    JSON.stringify(settings),
  ]);
  await sleep(1000);
  const during = await probe();
  const storm = JSON.parse((await storming).stdout);
  return { idle, during, storm, settings };
}
