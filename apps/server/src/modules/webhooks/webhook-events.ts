import type { CreditType, WebhookEventData, WebhookEventType } from '@herald/contract';
import type { DbOrTx, Tx } from '../../db/database.js';
import * as repo from './webhooks.repo.js';

/**
 * The webhooks module's face for other modules: an event is written in the caller's
 * transaction (the outbox), so it is sent exactly when the change it reports committed. With no
 * enabled endpoint of the user subscribed to the type, nothing is written. Campaign status
 * changes emit by themselves (a trigger, migration 0035).
 */
export async function emitWebhookEvent<T extends WebhookEventType>(
  tx: DbOrTx,
  userId: string,
  type: T,
  data: WebhookEventData<T>,
): Promise<void> {
  await repo.emit(tx, userId, type, data);
}

/**
 * After a debit: `credits.low_balance` when it took the balance from at or above the user's
 * threshold to below it (once per crossing, not on every debit below it).
 */
export async function lowBalanceCheck(
  tx: Tx,
  move: { userId: string; creditType: CreditType; count: number },
  balance: number,
  threshold: number | null,
): Promise<void> {
  if (threshold === null || balance >= threshold || balance + move.count < threshold) return;
  await emitWebhookEvent(tx, move.userId, 'credits.low_balance', {
    creditType: move.creditType,
    balance,
    threshold,
  });
}
