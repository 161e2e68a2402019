import {
  CreateAnnouncementFieldsSchema,
  server as msg,
  type AdminAnnouncement,
  type AdminAnnouncementList,
  type AnnouncementList,
  type AnnouncementListFilters,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import { badRequest, notFound } from '../../lib/app-error.js';
import type { Actor } from '../../policies/scope.js';
import { deleteImage, imageTypeOf, storeImage } from './announcement-files.js';
import type { AnnouncementUpload } from './announcements.input.js';
import { presentForAdmin, presentForUser } from './announcements.presenter.js';
import * as repo from './announcements.repo.js';

/**
 * Announcements (docs/product.md, Announcements and alerts): Admin posts and deletes them; each user
 * reads those of its audience, the unexpired ones for the bell and all of them as history, and
 * marks them seen for itself.
 */

function page<T extends { seq: string }>(rows: T[], limit: number) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? last.seq : null };
}

/** GET /api/announcements: the caller's unexpired announcements with its seen state. */
export async function listMine(
  ctx: AppContext,
  actor: Actor,
  q: AnnouncementListFilters,
): Promise<AnnouncementList> {
  const [rows, unseenCount] = await Promise.all([
    repo.listVisible(ctx.db, actor, q, { unexpiredOnly: true }),
    repo.countUnseen(ctx.db, actor),
  ]);
  const { items, nextCursor } = page(rows, q.limit);
  return { announcements: items.map(presentForUser), unseenCount, nextCursor };
}

/** GET /api/announcements/history: every announcement of the caller's audience, expired too. */
export async function listHistory(
  ctx: AppContext,
  actor: Actor,
  q: AnnouncementListFilters,
): Promise<AnnouncementList> {
  const rows = await repo.listVisible(ctx.db, actor, q, { unexpiredOnly: false });
  const { items, nextCursor } = page(rows, q.limit);
  return { announcements: items.map(presentForUser), nextCursor };
}

/** GET /api/announcements/all (Admin): every announcement with its targets. */
export async function listAll(
  ctx: AppContext,
  q: AnnouncementListFilters,
): Promise<AdminAnnouncementList> {
  const rows = await repo.listAll(ctx.db, q);
  const { items, nextCursor } = page(rows, q.limit);
  return { announcements: items.map(presentForAdmin), nextCursor };
}

/**
 * POST /api/announcements (Admin). Everything is checked before the image is written; the row
 * and its targets are one transaction, and the image is deleted again when that fails.
 */
export async function createAnnouncement(
  ctx: AppContext,
  actor: Actor,
  upload: AnnouncementUpload,
): Promise<AdminAnnouncement> {
  const fields = CreateAnnouncementFieldsSchema.parse(upload.fields);
  if (fields.expiryDate && fields.expiryDate.getTime() <= Date.now()) {
    throw badRequest(msg.announcementExpiryPast);
  }
  const users = await repo.usersByEmail(ctx.db, fields.visibilityTargets);
  const known = new Map(users.map((u) => [u.email, u.id]));
  const unknown = fields.visibilityTargets.find((e) => !known.has(e));
  if (unknown) throw badRequest(msg.announcementTargetUnknown(unknown));
  const type = upload.image ? imageTypeOf(upload.image) : null;
  if (upload.image && !type) throw badRequest(msg.announcementImageType);
  const image = upload.image && type ? await storeImage(ctx.files, upload.image, type) : null;
  try {
    const row = await ctx.db.transaction().execute(async (tx) => {
      const inserted = await repo.insertAnnouncement(tx, {
        title: fields.title,
        message: fields.message,
        link: fields.link ?? null,
        image,
        expiry_date: fields.expiryDate ?? null,
        visibility_type: fields.visibilityType,
        created_by: actor.id,
      });
      await repo.insertTargets(tx, inserted.id, [...known.values()]);
      return inserted;
    });
    return presentForAdmin({
      ...row,
      title: fields.title,
      message: fields.message,
      link: fields.link ?? null,
      image,
      expiry_date: fields.expiryDate ?? null,
      visibility_type: fields.visibilityType,
      targets: [...known.keys()].sort(),
    });
  } catch (err) {
    // The request's own error goes on; an image left behind is the sweep's.
    await deleteImage(ctx.files, image).catch(() => {});
    throw err;
  }
}

/** DELETE /api/announcements/{id} (Admin): the row, then its image file. */
export async function deleteAnnouncement(ctx: AppContext, id: string): Promise<void> {
  const row = await repo.deleteAnnouncement(ctx.db, id);
  if (!row) throw notFound(msg.announcementNotFound);
  // The row is gone (committed): an image the store could not delete now is the sweep's.
  await deleteImage(ctx.files, row.image).catch((err: unknown) => {
    ctx.log.warn({ err }, 'could not delete an announcement image');
  });
}

/** PUT /api/announcements/{id}/seen: for the caller only; 404 outside its audience. */
export async function markSeen(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  if (!(await repo.isVisible(ctx.db, actor, id))) throw notFound(msg.announcementNotFound);
  await repo.markSeen(ctx.db, id, actor.id);
}
