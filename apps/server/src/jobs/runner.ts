import { run, runOnce, type Runner } from 'graphile-worker';
import type { AppContext } from '../context.js';
import { crontabFor, taskList } from './tasks.js';
import { workerLogger } from './worker-logger.js';
import { recoverAtStart } from '../modules/delivery/delivery-tasks.js';

/**
 * Jobs at once per instance. Mail and cleanups are small; a slow SMTP server must not hold up
 * the cleanups, and a campaign's two dispatch slices (seconds each) must not hold up the mail.
 */
const CONCURRENCY = 4;

export interface JobRunner {
  /** Lets the running jobs finish, then stops. */
  stop(): Promise<void>;
}

/**
 * Starts graphile-worker on the context's database: it claims jobs with SKIP LOCKED (each job
 * runs on one instance), hears new ones through LISTEN, and schedules the crontab. It has its
 * own small pool: the LISTEN connection is held for good and must not starve the requests.
 */
export async function startJobRunner(ctx: AppContext): Promise<JobRunner> {
  const runner: Runner = await run({
    connectionString: ctx.databaseUrl,
    maxPoolSize: CONCURRENCY + 2,
    concurrency: CONCURRENCY,
    noHandleSignals: true,
    logger: workerLogger(ctx.log),
    taskList: taskList(ctx),
    parsedCronItems: crontabFor(ctx.config),
  });
  // Campaigns a crash left mid-send resume now, not at the watchdog's next minute.
  await recoverAtStart(ctx);
  return { stop: () => runner.stop() };
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
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  });
}
