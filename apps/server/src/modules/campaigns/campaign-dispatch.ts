import type { CampaignTemplate, CreditType } from '@herald/contract';
import type { DbOrTx, Tx } from '../../db/database.js';

/**
 * What a campaign's status change asks of the delivery engine, inside the change's own
 * transaction, so the status and the sending's start or stop commit together or not at all.
 * The campaigns module owns this port and never imports the engine: the delivery module
 * implements it (its index.ts, `campaignDispatch`) and context.ts hands it to the context as
 * `ctx.dispatch`. See docs/delivery.md, Campaigns and the engine.
 */
export interface CampaignDispatch {
  /**
   * An Admin's Approved: the engine takes the campaign into Processing (default sender, lane
   * jobs). False leaves it Approved: automatic dispatch found no default sender, or the
   * engine already sent this campaign once.
   */
  start(tx: Tx, campaignId: string): Promise<boolean>;
  /**
   * A move that stops the engine's sending (Cancelled, Rejected, or any move out of
   * Processing): no more claims, and the engine's settlement refunds the failed and unsent.
   * False when the engine has no part in the campaign (the status change refunds it all).
   */
  cancel(tx: Tx, campaignId: string): Promise<boolean>;
  /**
   * A new campaign's WhatsApp template: one of those of the sender its credit type goes
   * through, with its variables' values checked; throws a 400 otherwise. The copy to keep, and
   * the text the template reads with those values (the campaign's message).
   */
  template(
    db: DbOrTx,
    creditType: CreditType,
    templateId: string,
    values: readonly string[],
  ): Promise<{ copy: CampaignTemplate; text: string }>;
}
