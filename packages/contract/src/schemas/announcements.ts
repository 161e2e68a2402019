import { z } from 'zod';
import { FILE_LIMITS } from '../limits.js';
import { ANNOUNCEMENT_LIST_DEFAULT } from '../links.js';
import { server as msg } from '../server-messages.js';
import { BigintCursorSchema, EmailSchema, text } from './common.js';

/** Announcements (docs/product.md, Announcements and alerts). */

export const ANNOUNCEMENT_VISIBILITY_TYPES = ['all', 'reseller', 'specific'] as const;
export type AnnouncementVisibilityType = (typeof ANNOUNCEMENT_VISIBILITY_TYPES)[number];

export const ANNOUNCEMENT_TITLE_MAX = 200;
export const ANNOUNCEMENT_MESSAGE_MAX = 5000;
export const ANNOUNCEMENT_LINK_MAX = 2048;
/** Emails a `specific` announcement may list; a wider audience is a `reseller` or `all` one. */
export const ANNOUNCEMENT_MAX_TARGETS = 500;
/** An announcement image is an image file of up to 3 MB (images max 3 MB). */
export const ANNOUNCEMENT_IMAGE_MAX_BYTES = FILE_LIMITS.image;
/** The multipart file field of POST /api/announcements. */
export const ANNOUNCEMENT_IMAGE_FIELD = 'image';
export const ANNOUNCEMENT_LIST_MAX = 200;

export const AnnouncementVisibilityTypeSchema = z.enum(
  ANNOUNCEMENT_VISIBILITY_TYPES,
  msg.announcementVisibilityInvalid,
);

/** Required text; a form's CRLF line breaks (multipart sends them so) are stored as LF. */
const required = (label: string, empty: string, max: number) =>
  text({ error: empty })
    .transform((v) => v.replace(/\r\n?/g, '\n'))
    .pipe(z.string().trim().min(1, empty).max(max, msg.announcementTextTooLong(label, max)));

/** An optional form field: absent or blank means "not set". */
const blankToUndefined = <T extends z.ZodType<unknown, string>>(schema: T) =>
  text()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .pipe(schema.optional());

/** An expiry as the form sends it: a date (`YYYY-MM-DD`, the end of that UTC day) or an ISO instant. */
export const ExpiryDateSchema = z
  .string()
  .max(40, msg.announcementExpiryInvalid)
  .transform((v, ctx) => {
    const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(v);
    const iso = z.iso.datetime({ offset: true }).safeParse(v).success;
    const at = dateOnly ? new Date(`${v}T23:59:59.999Z`) : iso ? new Date(v) : null;
    if (!at || Number.isNaN(at.getTime()) || (dateOnly && at.toISOString().slice(0, 10) !== v)) {
      ctx.addIssue({ code: 'custom', message: msg.announcementExpiryInvalid });
      return z.NEVER;
    }
    return at;
  });

/** Comma-joined emails, trimmed, lower-cased and deduplicated; blanks between commas are skipped. */
const TargetsSchema = text()
  .max(ANNOUNCEMENT_MAX_TARGETS * 256, msg.announcementTooManyTargets(ANNOUNCEMENT_MAX_TARGETS))
  .transform((v) => v.split(',').filter((e) => e.trim() !== ''))
  .pipe(
    z
      .array(EmailSchema)
      .max(ANNOUNCEMENT_MAX_TARGETS, msg.announcementTooManyTargets(ANNOUNCEMENT_MAX_TARGETS)),
  )
  .transform((emails) => [...new Set(emails)]);

/** The text fields of POST /api/announcements (multipart; the file is `image`). */
export const CreateAnnouncementFieldsSchema = z
  .strictObject({
    title: required('Title', msg.announcementTitleRequired, ANNOUNCEMENT_TITLE_MAX),
    message: required('Message', msg.announcementMessageRequired, ANNOUNCEMENT_MESSAGE_MAX),
    link: blankToUndefined(
      z
        .string()
        .max(ANNOUNCEMENT_LINK_MAX, msg.announcementLinkInvalid)
        .pipe(z.url({ protocol: /^https?$/, error: msg.announcementLinkInvalid })),
    ),
    expiryDate: blankToUndefined(ExpiryDateSchema),
    visibilityType: blankToUndefined(AnnouncementVisibilityTypeSchema).transform((v) => v ?? 'all'),
    visibilityTargets: blankToUndefined(TargetsSchema).transform((v) => v ?? []),
  })
  .superRefine((f, ctx) => {
    if (f.visibilityType === 'specific' && f.visibilityTargets.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: msg.announcementTargetsRequired,
        path: ['visibilityTargets'],
      });
    }
    if (f.visibilityType !== 'specific' && f.visibilityTargets.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: msg.announcementTargetsOnlySpecific,
        path: ['visibilityTargets'],
      });
    }
  });
export type CreateAnnouncementFields = z.output<typeof CreateAnnouncementFieldsSchema>;

export const AnnouncementListQuerySchema = z.object({
  cursor: blankToUndefined(BigintCursorSchema),
  limit: z.coerce
    .number(msg.pageLimit(ANNOUNCEMENT_LIST_MAX))
    .int(msg.pageLimit(ANNOUNCEMENT_LIST_MAX))
    .min(1, msg.pageLimit(ANNOUNCEMENT_LIST_MAX))
    .max(ANNOUNCEMENT_LIST_MAX, msg.pageLimit(ANNOUNCEMENT_LIST_MAX))
    .default(ANNOUNCEMENT_LIST_DEFAULT),
});
export type AnnouncementListQuery = z.input<typeof AnnouncementListQuerySchema>;
export type AnnouncementListFilters = z.output<typeof AnnouncementListQuerySchema>;

/** An announcement as its audience sees it: who else it targets is not shown. */
export const AnnouncementSchema = z.object({
  _id: z.string(),
  title: z.string(),
  message: z.string(),
  /** The image's public URL, or null. */
  image: z.string().nullable(),
  link: z.string().nullable(),
  createdAt: z.string(),
  expiryDate: z.string().nullable(),
  visibility: z.object({ type: AnnouncementVisibilityTypeSchema }),
  /**
   * Whether the caller has seen it ("seen" is per user: docs/product.md, Announcements and alerts).
   */
  seen: z.boolean(),
});
export type Announcement = z.infer<typeof AnnouncementSchema>;

/** GET /api/announcements and /history: newest first, a page at a time. */
export const AnnouncementListSchema = z.object({
  announcements: z.array(AnnouncementSchema),
  /** How many unexpired announcements for the caller are unseen (GET /api/announcements only). */
  unseenCount: z.number().optional(),
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type AnnouncementList = z.infer<typeof AnnouncementListSchema>;

/** An announcement as Manage Announcements (Admin) shows it, with its target emails. */
export const AdminAnnouncementSchema = AnnouncementSchema.omit({
  seen: true,
  visibility: true,
}).extend({
  visibility: z.object({
    type: AnnouncementVisibilityTypeSchema,
    targets: z.array(z.string()),
  }),
});
export type AdminAnnouncement = z.infer<typeof AdminAnnouncementSchema>;

export const AdminAnnouncementListSchema = z.object({
  announcements: z.array(AdminAnnouncementSchema),
  nextCursor: z.string().nullable(),
});
export type AdminAnnouncementList = z.infer<typeof AdminAnnouncementListSchema>;

export const CreateAnnouncementReplySchema = z.object({
  message: z.string(),
  announcement: AdminAnnouncementSchema,
});
export type CreateAnnouncementReply = z.infer<typeof CreateAnnouncementReplySchema>;
