import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { run, runOnce, type Runner, type WorkerEvents } from 'graphile-worker';
import type { AppContext } from '../context.js';
import { crontabFor, taskList } from './tasks.js';
import { forceUnlockWorkers } from './job-queue.repo.js';
import { workerLogger } from './worker-logger.js';
import { recoverAtStart } from '../modules/delivery/index.js';

/**
 * Jobs at once per instance. Mail and cleanups are small; a slow SMTP server must not hold up
 * the cleanups, and a campaign's two dispatch slices (seconds each) must not hold up the mail.
 */
const CONCURRENCY = 4;

/** Waits before starting a stopped runner again; the last one repeats. */
export const RESTART_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
/** A runner that lasted this long starts again after the first delay, not the last one used. */
const HEALTHY_MS = 60_000;

/**
 * Completions and failures go through graphile-worker's batcher (written at once, no delay):
 * unbatched, a job that ends while the database is unreachable (PostgreSQL killed or
 * restarting) rejects a promise nobody awaits, and Node ends the process. Batched, the failed
 * write stops the runner instead, which the supervision below starts again.
 */
const JOB_WRITES = { completeJobBatchDelay: 0, failJobBatchDelay: 0 } as const;

export interface JobRunner {
  /** Lets the running jobs finish, then stops. */
  stop(): Promise<void>;
}

/**
 * Starts graphile-worker on the context's database: it claims jobs with SKIP LOCKED (each job
 * runs on one instance), hears new ones through LISTEN, and schedules the crontab. It has its
 * own small pool: the LISTEN connection is held for good and must not starve the requests.
 *
 * graphile-worker reconnects its LISTEN and its cron by itself, but its workers stop for good
 * when the database goes away mid-job (a job's end cannot be written). So the runner is
 * supervised: when it stops without `stop()`, it is started again with backoff until the
 * database answers; the jobs its stopped pools still held are unlocked (graphile-worker would
 * otherwise leave them for 4 hours) and the delivery watchdog runs, so sending resumes.
 * A first start that fails throws, as before: the app does not come up without its database.
 */
export async function startJobRunner(ctx: AppContext): Promise<JobRunner> {
  const stopping = new AbortController();
  let current = await launch(ctx);
  let restarts = 0;
  let restarting: Promise<void> | undefined;

  const supervise = (r: Launched) => {
    const since = Date.now();
    const ended = (err?: unknown) => {
      if (stopping.signal.aborted) return;
      ctx.log.warn({ component: 'jobs', err }, 'job runner stopped; starting it again');
      // A runner that stops again soon continues the backoff where its start left it.
      const from = Date.now() - since >= HEALTHY_MS ? 0 : r.attempt;
      restarting = relaunch(r.poolIds, from).finally(() => (restarting = undefined));
    };
    r.runner.promise.then(() => ended(), ended);
  };

  const relaunch = async (stalePools: string[], from: number): Promise<void> => {
    for (let attempt = from; ; attempt++) {
      const delay = RESTART_DELAYS_MS[Math.min(attempt, RESTART_DELAYS_MS.length - 1)]!;
      try {
        await sleep(delay, undefined, { signal: stopping.signal });
      } catch {
        return; // stopped meanwhile
      }
      try {
        await unlockPools(ctx, stalePools);
        const next = await launch(ctx, attempt + 1);
        if (stopping.signal.aborted) return await next.runner.stop();
        current = next;
        restarts++;
        supervise(next);
        await recoverAtStart(ctx).catch((err: unknown) => {
          // The watchdog's minute will do it.
          ctx.log.warn({ component: 'jobs', err }, 'delivery recovery after restart failed');
        });
        ctx.log.info({ component: 'jobs', restarts }, 'job runner started again');
        return;
      } catch (err) {
        ctx.log.warn({ component: 'jobs', err, attempt }, 'job runner could not start again yet');
      }
    }
  };

  supervise(current);
  // Campaigns a crash left mid-send resume now, not at the watchdog's next minute.
  await recoverAtStart(ctx);
  return {
    async stop() {
      stopping.abort();
      await restarting;
      if (!current.ended) await current.runner.stop();
    },
  };
}

interface Launched {
  runner: Runner;
  /** The worker pools it created: their ids are the `locked_by` of the jobs they took. */
  poolIds: string[];
  /** Its promise has settled: it stopped. */
  ended: boolean;
  /** Where the restart backoff continues if this one stops soon. */
  attempt: number;
}

async function launch(ctx: AppContext, attempt = 0): Promise<Launched> {
  const events: WorkerEvents = new EventEmitter();
  const poolIds: string[] = [];
  events.on('pool:create', ({ workerPool }) => poolIds.push(workerPool.id));
  const runner = await run({
    connectionString: ctx.databaseUrl,
    maxPoolSize: CONCURRENCY + 2,
    concurrency: CONCURRENCY,
    noHandleSignals: true,
    logger: workerLogger(ctx.log),
    taskList: taskList(ctx),
    parsedCronItems: crontabFor(ctx.config),
    events,
    preset: { worker: JOB_WRITES },
  });
  const launched: Launched = { runner, poolIds, ended: false, attempt };
  runner.promise.then(
    () => (launched.ended = true),
    () => (launched.ended = true),
  );
  return launched;
}

/** Jobs locked by pools that stopped go back to the queue (they run again at once). */
async function unlockPools(ctx: AppContext, poolIds: string[]): Promise<void> {
  if (poolIds.length === 0) return;
  await forceUnlockWorkers(ctx.pool, poolIds);
}

/**
 * Runs every job that is due now, then returns: for a one-off command, and for tests, which
 * wait for the mail a request queued without running a background worker.
 */
export async function runDueJobs(ctx: AppContext): Promise<void> {
  await runOnce({
    pgPool: ctx.pool,
    noHandleSignals: true,
    logger: workerLogger(ctx.log),
    taskList: taskList(ctx),
    // Unbatched, a job's completion is written after runOnce returns; through the batcher
    // (with no delay) the shutdown waits for it, so every job run here is settled on return.
    preset: { worker: JOB_WRITES },
  });
}
