import { optOutKeyword } from '@herald/contract';
import type { Db } from '../../../db/database.js';
import { applyOptOutKeyword } from '../../suppressions/suppressions.service.js';
import type { InboundMessage } from '../providers/provider.js';
import { latestOwnerReaching } from './inbound.repo.js';

/**
 * People's replies from a provider's webhook (docs/delivery.md, Opt-outs): a STOP word puts the
 * sender's number on the list of the account whose campaign last reached it through this
 * provider, a START word takes it off; any other text, or a number no campaign reached, is
 * ignored. In order, each in its own short transaction; repeats change nothing.
 */
export async function applyInbound(
  db: Db,
  provider: string,
  messages: readonly InboundMessage[],
): Promise<void> {
  for (const m of messages) {
    const keyword = optOutKeyword(m.text);
    if (keyword === null) continue;
    await db.transaction().execute(async (tx) => {
      const owner = await latestOwnerReaching(tx, provider, m.from);
      if (owner !== undefined) await applyOptOutKeyword(tx, owner, m.from, keyword);
    });
  }
}
