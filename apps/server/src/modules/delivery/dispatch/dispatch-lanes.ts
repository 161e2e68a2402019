import type { DbOrTx } from '../../../db/database.js';
import { addJob, TASKS } from '../../../jobs/job-queue.js';

/**
 * A campaign's lanes: DISPATCH_LANES `delivery-dispatch` jobs, one per lane, each running one
 * slice of the sending after another, so two instances (or two workers of one runner) share
 * one campaign. Each lane has its job key; adding a lane's job again replaces the one waiting
 * (or, if it runs, takes its key for the next run), so a campaign never has more than one
 * waiting job per lane. Lanes share the campaign's claims: what one lane claimed, no other
 * lane sends (docs/delivery.md, Lanes).
 */

export const DISPATCH_LANES = 2;

/** The job key of a lane (the watchdog finds a campaign's jobs by its prefix). */
export const laneJobKey = (campaignId: string, lane: number) =>
  `delivery-dispatch:${campaignId}:${lane}`;

export async function addLaneJob(
  db: DbOrTx,
  campaignId: string,
  lane: number,
  runAt?: Date,
): Promise<void> {
  await addJob(
    db,
    TASKS.dispatchCampaign,
    { campaignId, lane },
    { jobKey: laneJobKey(campaignId, lane), runAt, maxAttempts: 25 },
  );
}

/** Every lane's job; inside a transaction they commit with the change that asked for them. */
export async function addLaneJobs(db: DbOrTx, campaignId: string, runAt?: Date): Promise<void> {
  for (let lane = 0; lane < DISPATCH_LANES; lane++) {
    await addLaneJob(db, campaignId, lane, runAt);
  }
}
