import type { DbOrTx } from '../../../db/database.js';
import { addJob, TASKS } from '../../../jobs/job-queue.js';

/**
 * Asks for a campaign's settlement (finalize.ts: Completed, refund, report) on the job runner.
 * One pending job per campaign: asking again while one waits only moves it. Called by the
 * dispatcher when a pass ends and by the status writer when a batch may have settled the last
 * recipients; the task itself checks whether the campaign is really done.
 */
export async function requestFinalize(db: DbOrTx, campaignId: string, runAt?: Date): Promise<void> {
  await addJob(
    db,
    TASKS.finalizeCampaign,
    { campaignId },
    { jobKey: `delivery-finalize:${campaignId}`, runAt, maxAttempts: 10 },
  );
}
