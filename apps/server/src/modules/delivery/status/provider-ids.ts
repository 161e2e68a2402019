import type { DbOrTx } from '../../../db/database.js';
import { recipientsByProviderIds } from './provider-refs.repo.js';
import type { RecipientEvent } from './status.repo.js';

/**
 * Status events that name their message by the provider's id only (Jasmin's, Twilio's SID)
 * find their recipient row here, in the batch's transaction, before the batch's one statement
 * (docs/delivery.md, Providers).
 */

/**
 * An event of a provider that reports by its own message id only (Jasmin, Twilio): its
 * recipient is looked up in provider_message_refs before the batch is applied.
 */
export interface ProviderIdEvent extends Omit<RecipientEvent, 'campaignId' | 'phone'> {
  campaignId: null;
  phone: null;
  provider: string;
  providerMessageId: string;
}

/** What the writer batches: events naming their row, and events naming a provider's id. */
export type WriterEvent = RecipientEvent | ProviderIdEvent;

/** Where a webhook's events came from, and how its adapter reads a failure. */
export interface EventSource {
  /** The adapter's name: the provider a bare provider message id belongs to. */
  provider: string;
  /** Whether a failure must pause its campaign (the adapter's `pause_campaign` class). */
  pauses?: (error: { code: string; text: string }) => boolean;
  /** Whether a failure is the person's opt-out (the adapter's `opted_out` class). */
  optedOut?: (error: { code: string; text: string }) => boolean;
}

/**
 * Gives each provider-id event the row provider_message_refs names; those it names none are
 * counted unknown (a callback that came before its send's answer was written, or a message
 * Herald did not send).
 */
export async function resolveProviderIds(
  db: DbOrTx,
  events: readonly WriterEvent[],
): Promise<{ events: RecipientEvent[]; unknown: number }> {
  const byProvider = new Map<string, string[]>();
  for (const e of events) {
    if (e.campaignId === null) {
      const ids = byProvider.get(e.provider) ?? [];
      ids.push(e.providerMessageId);
      byProvider.set(e.provider, ids);
    }
  }
  if (byProvider.size === 0) return { events: events as RecipientEvent[], unknown: 0 };
  const found = new Map<string, { campaignId: string; phone: string }>();
  for (const [provider, ids] of byProvider) {
    for (const r of await recipientsByProviderIds(db, provider, ids)) {
      found.set(`${provider}\n${r.provider_message_id}`, {
        campaignId: r.campaign_id,
        phone: r.phone,
      });
    }
  }
  const out: RecipientEvent[] = [];
  let unknown = 0;
  for (const e of events) {
    if (e.campaignId !== null) {
      out.push(e);
      continue;
    }
    const row = found.get(`${e.provider}\n${e.providerMessageId}`);
    if (!row) {
      unknown++;
      continue;
    }
    out.push({
      campaignId: row.campaignId,
      phone: row.phone,
      state: e.state,
      at: e.at,
      providerMessageId: e.providerMessageId,
      errorCode: e.errorCode,
      errorText: e.errorText,
      ...(e.pauseCampaign ? { pauseCampaign: true } : {}),
    });
  }
  return { events: out, unknown };
}
