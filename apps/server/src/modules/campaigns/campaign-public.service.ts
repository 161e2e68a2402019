import {
  CANCELLATION_REQUESTED,
  type CampaignListFilters,
  type CampaignRecipientsPage,
  type CampaignWithFiles,
  type PublicRecipient,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { runIdempotent } from '../../plugins/idempotency.js';
import type { Actor } from '../../policies/scope.js';
import { visibleCampaign } from './campaign-access.js';
import { changeStatusIn } from './campaign-status.service.js';
import { presentCampaign, presentFile } from './campaigns.presenter.js';
import { filesOf } from './campaigns.repo.js';
import { listCampaigns } from './campaigns.service.js';
import { recipientStatusPage, type RecipientStatusRow } from './recipient-status.repo.js';
import { CampaignReplySchema } from '@herald/contract';
import type { AuditActor } from '../audit/index.js';

/**
 * The campaign reads and the cancel of the public API (/api/v1, docs/api.md), over the same
 * scope checks, rows and presenters as the web app's routes.
 */

/** GET /api/v1/campaigns/{id}: the campaign and its media; its recipients are paged apart. */
export async function getCampaignWithFiles(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<CampaignWithFiles> {
  const row = await visibleCampaign(ctx.db, actor, id);
  const files = await filesOf(ctx.db, id);
  return { ...presentCampaign(row, actor), files: files.map(presentFile) };
}

/** GET /api/v1/campaigns: the web list's scope and order, as `{ items, nextCursor }`. */
export async function listCampaignPage(
  ctx: AppContext,
  actor: Actor,
  q: Pick<CampaignListFilters, 'cursor' | 'limit' | 'status'>,
) {
  const filters: CampaignListFilters = {
    from: undefined,
    to: undefined,
    userEmail: undefined,
    tzOffset: 0,
    ...q,
  };
  const { campaigns, nextCursor } = await listCampaigns(ctx, actor, filters);
  return { items: campaigns, nextCursor };
}

const iso = (d: Date | null) => d?.toISOString() ?? null;
function presentRecipient(r: RecipientStatusRow): PublicRecipient {
  return {
    phone: r.phone,
    state: r.state,
    attempts: r.attempts,
    errorCode: r.error_code,
    errorText: r.error_text,
    sentAt: iso(r.sent_at),
    deliveredAt: iso(r.delivered_at),
    readAt: iso(r.read_at),
    failedAt: iso(r.failed_at),
  };
}

/** GET /api/v1/campaigns/{id}/recipients: one keyset page with each recipient's status. */
export async function listRecipientStatuses(
  ctx: AppContext,
  actor: Actor,
  id: string,
  q: CampaignRecipientsPage,
) {
  await visibleCampaign(ctx.db, actor, id);
  const rows = await recipientStatusPage(ctx.db, id, q.cursor, q.limit + 1);
  const items = rows.slice(0, q.limit).map(presentRecipient);
  return { items, nextCursor: rows.length > q.limit ? (items.at(-1)?.phone ?? null) : null };
}

/**
 * POST /api/v1/campaigns/{id}/cancel: the owner's side of the status rules, Cancellation
 * Requested (the web app's Request Cancellation), for the Admin too; an Admin cancels outright
 * on the web app. Idempotent under `key`, in the status change's transaction.
 */
export async function requestCancellation(
  ctx: AppContext,
  actor: AuthUser,
  audit: AuditActor,
  id: string,
  key: string | undefined,
) {
  return runIdempotent(
    ctx.db,
    {
      userId: actor.id,
      key,
      endpoint: 'POST /api/v1/campaigns/{id}/cancel',
      status: 200,
      request: { id },
      replySchema: CampaignReplySchema,
    },
    (tx) => changeStatusIn(ctx, tx, actor, audit, id, CANCELLATION_REQUESTED),
  );
}
