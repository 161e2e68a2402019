import type { DbOrTx } from '../../db/database.js';
import { addJob, TASKS } from '../../jobs/job-queue.js';

/**
 * The dispatch jobs of a campaign: DISPATCH_SLOTS jobs, one per slot key, so two instances
 * (or two runner slots) can share one campaign. Adding a slot's job again replaces the one
 * waiting (or, if it runs, takes its key for the next run), so a campaign never has more than
 * one waiting job per slot.
 */

export const DISPATCH_SLOTS = 2;

export const dispatchJobKey = (campaignId: string, slot: number) =>
  `delivery-dispatch:${campaignId}:${slot}`;

export async function addDispatchJob(
  db: DbOrTx,
  campaignId: string,
  slot: number,
  runAt?: Date,
): Promise<void> {
  await addJob(
    db,
    TASKS.dispatchCampaign,
    { campaignId, slot },
    { jobKey: dispatchJobKey(campaignId, slot), runAt, maxAttempts: 25 },
  );
}

/** Every slot's job; inside a transaction they commit with the change that asked for them. */
export async function addDispatchJobs(db: DbOrTx, campaignId: string, runAt?: Date): Promise<void> {
  for (let slot = 0; slot < DISPATCH_SLOTS; slot++) {
    await addDispatchJob(db, campaignId, slot, runAt);
  }
}
