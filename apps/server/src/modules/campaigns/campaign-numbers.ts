import {
  CAMPAIGN_NUMBERS_HEADER,
  campaignCopyServer,
  type CampaignNumberGroup,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import { conflict } from '../../lib/app-error.js';
import type { Actor } from '../../policies/scope.js';
import { visibleCampaign } from './campaign-access.js';
import { numbersPage } from './campaign-numbers.repo.js';

/**
 * GET /api/campaigns/{id}/numbers?which=all|failed|not_read (docs/product.md, Campaigns,
 * "Clone and resend"): the numbers the create form copies, as CSV with the header `number`.
 * A campaign holds up to MAX_RECIPIENTS numbers, so they are read in keyset batches, each only
 * when the response has taken the one before; nothing holds the whole list.
 */

const BATCH = 20_000;

export interface NumbersCsv {
  filename: string;
  chunks: () => AsyncGenerator<string>;
}

/** Checks scope and, for a report group, that there is a report (before any byte is sent). */
export async function prepareNumbers(
  ctx: AppContext,
  actor: Actor,
  id: string,
  which: CampaignNumberGroup,
): Promise<NumbersCsv> {
  const campaign = await visibleCampaign(ctx.db, actor, id);
  if (which !== 'all' && campaign.report_count === 0) {
    throw conflict(campaignCopyServer.noReport);
  }
  return {
    filename: `campaign_${id}_${which}_numbers.csv`,
    async *chunks() {
      yield `${CAMPAIGN_NUMBERS_HEADER}\r\n`;
      let after: string | undefined;
      for (;;) {
        const page = await numbersPage(ctx.db, id, which, after, BATCH);
        if (page.length > 0) yield `${page.join('\r\n')}\r\n`;
        after = page.at(-1);
        if (page.length < BATCH || after === undefined) return;
      }
    },
  };
}
