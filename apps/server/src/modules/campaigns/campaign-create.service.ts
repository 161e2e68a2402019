import {
  CreateCampaignReplySchema,
  RATE_LIMITS,
  server as msg,
  type CreateCampaignReply,
  type PublicCreateCampaignFields,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { IdempotentResult } from '../../plugins/idempotency.js';
import { runIdempotent } from '../../plugins/idempotency.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { discardFiles } from './campaign-files.js';
import type { CampaignUpload } from './campaigns.input.js';
import * as service from './campaigns.service.js';
import { RecipientScanner, recipientsDigest } from './recipient-scan.js';
import { recordAudit, type AuditActor } from '../audit/index.js';

export { readCampaignUpload } from './campaigns.input.js';

/**
 * The public API's JSON campaign as the creation reads it: each recipient read as one line of
 * the form's `to` (the same rules, recipient-scan.ts), and `to` the digest of the kept numbers,
 * as for a form, so idempotency compares the same request whichever way it came.
 */
export async function parsedFromJson(
  body: PublicCreateCampaignFields,
): Promise<service.ParsedCampaign> {
  const { recipients: entries, ...fields } = body;
  const scanner = new RecipientScanner(entries.length);
  for (const entry of entries) {
    scanner.push(entry);
    scanner.push('\n');
  }
  const recipients = scanner.finish();
  return { parsed: { ...fields, to: await recipientsDigest(recipients) }, files: [], recipients };
}

/** The per-user rate-limit key of campaign creation (RATE_LIMITS.campaignCreatePerUser). */
export const campaignCreateLimitKey = (userId: string) => `campaign-create:user:${userId}`;

export interface CreateCall {
  actor: AuthUser;
  /** Who the audit entry names (the session or API key caller). */
  audit: AuditActor;
  /** The Idempotency-Key header's value, if any. */
  key: string | undefined;
  /** Names the route for idempotency, so one key cannot be replayed on another route. */
  endpoint: string;
  /** Made with a test API key: charged nothing, sent to the simulator only (docs/api.md). */
  test: boolean;
  /** Reads the request's campaign: the multipart form, or the public API's JSON body. */
  read: () => Promise<CampaignUpload | service.ParsedCampaign>;
}

/**
 * One campaign creation, whichever wire form it came in (POST /api/campaigns and
 * POST /api/v1/campaigns): the per-user limit, counted before the body is read, the checks,
 * the template against the routed sender, the owner, the files and the idempotent writes. A
 * replay gives its counted attempt back and drops this request's copies of the files.
 */
export async function createCampaign(
  ctx: AppContext,
  call: CreateCall,
): Promise<IdempotentResult<CreateCampaignReply, 201>> {
  const { actor, key, test } = call;
  const limitKey = campaignCreateLimitKey(actor.id);
  await ctx.rateLimiter.consume([[limitKey, RATE_LIMITS.campaignCreatePerUser]]);
  const upload = await call.read();
  try {
    const checked = service.checkUpload(upload);
    const { templateId, templateValues } = checked.fields;
    if (templateId !== undefined) {
      const chosen = await ctx.dispatch.template(
        ctx.db,
        checked.fields.creditType,
        templateId,
        templateValues ?? [],
      );
      checked.template = chosen.copy;
      checked.fields = { ...checked.fields, message: chosen.text };
    }
    const owner = await service.resolveOwner(ctx, actor, checked.fields.userEmail);
    const files = await service.commitFiles(ctx.files, upload.files);
    const result = await runIdempotent(
      ctx.db,
      {
        userId: actor.id,
        key,
        endpoint: call.endpoint,
        status: 201,
        request: {
          fields: checked.fields,
          files: upload.files.map((f) => ({
            field: f.field,
            name: f.originalName,
            size: f.size,
            sha256: f.sha256,
          })),
          // A live key's and a test key's requests are not the same request.
          ...(test && { test }),
        },
        replySchema: CreateCampaignReplySchema,
      },
      async (tx) => {
        const campaign = await service.insertCampaign(tx, actor, owner, checked, files, test);
        // In the idempotent write's transaction: a replay writes no second entry.
        await recordAudit(tx, {
          actor: call.audit,
          action: 'campaign.create',
          target: {
            type: 'campaign',
            id: campaign._id,
            label: campaign.name,
            subjectUserId: owner.id,
          },
          changes: {
            status: { before: null, after: campaign.status },
            creditType: { before: null, after: checked.fields.creditType },
            recipients: { before: null, after: checked.recipients.kept },
            ...(test && { test: { before: null, after: true } }),
          },
        });
        return { message: msg.campaignCreated, campaign };
      },
    );
    if (result.replayed) {
      await ctx.rateLimiter.refund([limitKey]);
      await discardFiles(ctx.files, upload.files);
    }
    return result;
  } catch (err) {
    await discardFiles(ctx.files, upload.files);
    throw err;
  }
}
