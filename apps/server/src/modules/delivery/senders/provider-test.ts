import { randomUUID } from 'node:crypto';
import {
  PROVIDER_LIMITS,
  server as msg,
  type ProviderTestBody,
  type ProviderTestResult,
} from '@herald/contract';
import type { AppContext } from '../../../context.js';
import { badRequest, notFound } from '../../../lib/app-error.js';
import type { Actor } from '../../../policies/scope.js';
import { ProviderSendError } from '../providers/provider.js';
import * as repo from './providers.repo.js';
import { getSender } from './senders.repo.js';
import { requireAdmin } from './senders.service.js';

/**
 * "Send test message" (Providers screen): one text message through one of a provider's
 * senders, answered with what the provider said, as it said it. Its reference names no
 * campaign, so the provider's later status events for it are counted as unknown and dropped
 * (status/status-writer.ts); nothing is charged.
 */

/** The campaign part of a test message's reference: not a campaign id, so nothing matches it. */
const TEST_REFERENCE = 'test';

export async function sendTestMessage(
  ctx: AppContext,
  actor: Actor,
  providerId: string,
  body: ProviderTestBody,
): Promise<ProviderTestResult> {
  requireAdmin(actor);
  const provider = await repo.getProvider(ctx.db, providerId);
  if (!provider) throw notFound(msg.providerNotFound);
  const sender = await getSender(ctx.db, body.senderId);
  if (!sender) throw notFound(msg.senderNotFound);
  if (sender.provider_id !== provider.id) throw badRequest(msg.senderNotOfProvider);

  const adapter = ctx.delivery.senderAdapter({ ...provider, address: sender.address });
  let last: { status: number; body: string } | null = null;
  const cut = (text: string) => text.slice(0, PROVIDER_LIMITS.rawAnswerMax);
  try {
    const sent = await adapter.send(
      {
        reference: `${TEST_REFERENCE}:${randomUUID()}`,
        campaignId: TEST_REFERENCE,
        to: body.to,
        // The number is given with its country code.
        creditType: 'Normal Message - international',
        message: body.message,
        media: [],
        cta: null,
      },
      AbortSignal.timeout(30_000),
      (answer) => {
        last = answer;
      },
    );
    const answer = last as { status: number; body: string } | null;
    return {
      ok: true,
      message: msg.providerTestAccepted,
      status: answer?.status ?? null,
      body: cut(answer?.body ?? ''),
      providerMessageId: sent.providerMessageId,
    };
  } catch (err) {
    if (!(err instanceof ProviderSendError)) throw err;
    const answer = last as { status: number; body: string } | null;
    return {
      ok: false,
      message: answer ? msg.providerTestRefused : msg.providerTestUnreachable,
      status: answer?.status ?? null,
      body: cut(answer?.body ?? err.error.text),
      providerMessageId: null,
    };
  }
}
