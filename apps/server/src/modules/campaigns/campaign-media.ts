import { server as msg } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { notFound } from '../../lib/app-error.js';
import type { Actor } from '../../policies/scope.js';
import { visibleCampaign } from './campaign-access.js';
import { storedFilesOf } from './campaign-actions.repo.js';

/**
 * One media file of a campaign the actor sees (GET /api/campaigns/{id}/files/{fileId}); an
 * unknown file, or one of another campaign, answers 404 as an unknown campaign does.
 */
export async function campaignFileFor(ctx: AppContext, actor: Actor, id: string, fileId: string) {
  await visibleCampaign(ctx.db, actor, id);
  const file = (await storedFilesOf(ctx.db, id)).find((f) => f.id === fileId);
  if (!file) throw notFound(msg.notFound);
  return file;
}
