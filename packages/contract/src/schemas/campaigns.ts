import { z } from 'zod';
import { RECIPIENT_PAGE_DEFAULT, RECIPIENT_PAGE_MAX } from '../limits.js';
import { CAMPAIGN_LIST_DEFAULT } from '../links.js';
import type { Role } from '../roles.js';
import { AWAITING_APPROVAL_FILTER, CAMPAIGN_STATUSES } from '../statuses.js';
import { server as msg } from '../server-messages.js';
import { EmailSchema, optionalText, text, TzOffsetSchema } from './common.js';
import { CreditTypeSchema } from './credits.js';
import { DeliveryProgressSchema } from '../delivery.js';
import { CampaignTemplateSchema } from './templates.js';
import { SendAtSchema } from '../campaign-schedule.js';

/** Campaigns (docs/product.md, Campaigns). */

export const CAMPAIGN_MESSAGE_MAX = 4096;
/** A campaign's name: optional on create, at most this many characters. */
export const CAMPAIGN_NAME_MAX = 80;
/** A name made from the message is cut near this many characters, at a word's end. */
const DEFAULT_NAME_LENGTH = 40;

/**
 * The name a campaign gets when its creator gives none: the first words of its message, on one
 * line, cut at a word's end near DEFAULT_NAME_LENGTH characters (with … when cut). Server and
 * browser both call it, so the form's placeholder shows the very name the campaign will get.
 */
export function defaultCampaignName(message: string): string {
  const line = message.replace(/\s+/gu, ' ').trim();
  const chars = [...line];
  if (chars.length <= DEFAULT_NAME_LENGTH) return line;
  const head = chars.slice(0, DEFAULT_NAME_LENGTH).join('');
  const space = head.lastIndexOf(' ');
  return `${(space >= DEFAULT_NAME_LENGTH / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}
export const CAMPAIGN_LIST_MAX = 500;

export const CAMPAIGN_FILE_KINDS = [
  'dp',
  'singleCreative',
  'image',
  'pdf',
  'video',
  'audio',
] as const;
export type CampaignFileKind = (typeof CAMPAIGN_FILE_KINDS)[number];

/** The multipart file fields of POST /api/campaigns and the kind each stores. */
export const CAMPAIGN_FILE_FIELDS = {
  dp: 'dp',
  singleCreative: 'singleCreative',
  images: 'image',
  video: 'video',
  pdf: 'pdf',
  audio: 'audio',
} as const satisfies Record<string, CampaignFileKind>;
export type CampaignFileField = keyof typeof CAMPAIGN_FILE_FIELDS;

/**
 * What `createdBy` shows for a creator outside the viewer's scope (always a user above the
 * viewer, since the owner is in scope and the creator is the owner or above it): its role, as
 * the product's tables show 'Admin' where a user's creator is not to be named.
 */
export const CAMPAIGN_CREATOR_LABELS: Record<Role, string> = {
  Admin: 'Admin',
  Reseller: 'Reseller',
  'Sub-Reseller': 'Sub-Reseller',
  User: 'User',
};

export const CampaignStatusSchema = z.enum(CAMPAIGN_STATUSES, 'Choose a campaign status.');

/** The list's status filter: one status, or every campaign awaiting approval. */
export const CampaignListStatusSchema = z.enum(
  [...CAMPAIGN_STATUSES, AWAITING_APPROVAL_FILTER],
  'Choose a campaign status.',
);

const TemplateValuesSchema = z.array(z.string()).max(100);
const parseJson = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
};

const emptyToUndefined = <T extends z.ZodType<unknown, string>>(schema: T) =>
  z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .pipe(schema.optional());

/**
 * The text fields of POST /api/campaigns (multipart). Empty strings mean "not set"; which
 * fields a credit type allows is checked by the server after this shape.
 */
export const CreateCampaignFieldsSchema = z.strictObject({
  userEmail: emptyToUndefined(EmailSchema),
  name: optionalText(CAMPAIGN_NAME_MAX, 'Campaign name'),
  creditType: CreditTypeSchema,
  message: text({ error: msg.campaignMessageRequired })
    .trim()
    .min(1, msg.campaignMessageRequired)
    .max(CAMPAIGN_MESSAGE_MAX, msg.campaignMessageTooLong),
  /** Recipients, comma-joined (any of whitespace, commas and semicolons separates). */
  to: text().default(''),
  countryName: optionalText(100, 'Country name'),
  countryCode: optionalText(10, 'Country code'),
  ctaCall: emptyToUndefined(z.string().regex(/^\d{3,15}$/, msg.campaignCtaCallInvalid)),
  ctaCallText: optionalText(100, 'Call button text'),
  ctaURL: emptyToUndefined(
    z
      .string()
      .max(2048, msg.campaignCtaUrlInvalid)
      .pipe(z.url({ protocol: /^https?$/, error: msg.campaignCtaUrlInvalid })),
  ),
  ctaURLText: optionalText(100, 'URL button text'),
  /** A WhatsApp template of the sender the credit type goes through (templates.ts). */
  templateId: emptyToUndefined(z.uuid(msg.templateNotFound)),
  /** Its variables' values in order, as a JSON array of texts. */
  templateValues: emptyToUndefined(
    z.string().transform((raw, ctx) => {
      const parsed = TemplateValuesSchema.safeParse(parseJson(raw));
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: 'custom', message: msg.templateValuesInvalid });
      return z.NEVER;
    }),
  ),
  /**
   * When to send it once approved (campaign-schedule.ts): ISO 8601 with its offset, in the
   * future and at most SEND_AT_MAX_DAYS ahead. Empty or missing: when it is approved.
   */
  sendAt: emptyToUndefined(SendAtSchema),
});
export type CreateCampaignFields = z.output<typeof CreateCampaignFieldsSchema>;

export const CampaignFileSchema = z.object({
  id: z.string(),
  kind: z.enum(CAMPAIGN_FILE_KINDS),
  name: z.string(),
  mime: z.string(),
  size: z.number(),
});
export type CampaignFile = z.infer<typeof CampaignFileSchema>;

export const CampaignSchema = z.object({
  _id: z.string(),
  /** The creator's name for it, or the first words of its message (defaultCampaignName). */
  name: z.string(),
  userEmail: z.string(),
  userName: z.string(),
  /**
   * The creator's email when the creator is within the viewer's scope (the viewer itself or a
   * user of its subtree; an Admin sees every email), else only the creator's role as
   * CAMPAIGN_CREATOR_LABELS spells it (a Reseller's email is not shown to its Sub-Reseller).
   */
  createdBy: z.string(),
  creditType: CreditTypeSchema,
  message: z.string(),
  countryName: z.string().nullable(),
  countryCode: z.string().nullable(),
  ctaCall: z.string().nullable(),
  ctaCallText: z.string().nullable(),
  ctaURL: z.string().nullable(),
  ctaURLText: z.string().nullable(),
  status: CampaignStatusSchema,
  recipientCount: z.number(),
  /** Rows of the delivery report; 0 when no report was uploaded (View Report is hidden). */
  reportCount: z.number(),
  /** Report rows counted as delivered (Delivered or Read); the rest of reportCount failed. */
  reportDelivered: z.number(),
  createdAt: z.string(),
  /** The delivery engine's totals; null when the engine never touched it. */
  delivery: DeliveryProgressSchema.nullable(),
  /** The Admin's reason while the campaign is Rejected through Reject; else null. */
  rejectionReason: z.string().nullable(),
  /** The WhatsApp template it is sent as (its kept copy: name, language, values); else null. */
  template: CampaignTemplateSchema.nullable(),
  /**
   * Made with a test API key (docs/api.md, Test keys): it charged nothing and is sent to the
   * built-in simulator only. The screens show it with a Test badge.
   */
  test: z.boolean(),
  /**
   * Its "Send at" in UTC (ISO 8601), or null: sent when approved. While it is Approved and
   * this is ahead, it waits (isScheduledAhead); the screens show it in the viewer's zone.
   */
  sendAt: z.string().nullable(),
});
export type Campaign = z.infer<typeof CampaignSchema>;

export const CampaignWithFilesSchema = CampaignSchema.extend({
  files: z.array(CampaignFileSchema),
});
export type CampaignWithFiles = z.infer<typeof CampaignWithFilesSchema>;

/**
 * GET /api/campaigns/{id}: the campaign, its media files and a bounded first slice of its
 * recipients. A campaign may have 1,000,000 recipients, so the answer never carries them all:
 * `recipientCount` counts them, `recipients` holds the first CAMPAIGN_DETAIL_RECIPIENTS (100)
 * in number order, and `recipientsNextCursor` is null when that slice is all of them, else the
 * `cursor` to pass to GET /api/campaigns/{id}/recipients for the rest. The asset zip
 * (GET /api/campaigns/{id}/download) still holds every number, streamed.
 */
export const CampaignDetailSchema = CampaignWithFilesSchema.extend({
  recipients: z.array(z.string()),
  recipientsNextCursor: z.string().nullable(),
});
export type CampaignDetail = z.infer<typeof CampaignDetailSchema>;

/**
 * GET /api/campaigns/{id}/recipients: the recipients in number order, keyset pages. `cursor` is
 * the last number of the page before (a page's `nextCursor`); same scope as the detail.
 */
export const CampaignRecipientsQuerySchema = z.object({
  cursor: emptyToUndefined(z.string().regex(/^\d{1,15}$/, msg.invalidCursor)),
  limit: z.coerce.number().int().min(1).max(RECIPIENT_PAGE_MAX).default(RECIPIENT_PAGE_DEFAULT),
});
export type CampaignRecipientsQuery = z.input<typeof CampaignRecipientsQuerySchema>;
export type CampaignRecipientsPage = z.output<typeof CampaignRecipientsQuerySchema>;

export const CampaignRecipientsSchema = z.object({
  recipients: z.array(z.string()),
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type CampaignRecipients = z.infer<typeof CampaignRecipientsSchema>;

export const CreateCampaignReplySchema = z.object({
  message: z.string(),
  campaign: CampaignWithFilesSchema,
});
export type CreateCampaignReply = z.infer<typeof CreateCampaignReplySchema>;

const DateParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD.')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'Enter a real date.');

/** GET /api/campaigns and /api/campaigns/user/{email}: newest first, keyset pages. */
export const CampaignListQuerySchema = z
  .object({
    from: emptyToUndefined(DateParam),
    to: emptyToUndefined(DateParam),
    userEmail: emptyToUndefined(EmailSchema),
    /** A status, or AWAITING_APPROVAL_FILTER for Submitted and Pending Approval together. */
    status: emptyToUndefined(CampaignListStatusSchema),
    tzOffset: TzOffsetSchema,
    cursor: emptyToUndefined(z.uuid('Invalid cursor.')),
    limit: z.coerce.number().int().min(1).max(CAMPAIGN_LIST_MAX).default(CAMPAIGN_LIST_DEFAULT),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'From date must not be after To date.',
    path: ['to'],
  });
export type CampaignListQuery = z.input<typeof CampaignListQuerySchema>;
export type CampaignListFilters = z.output<typeof CampaignListQuerySchema>;

export const CampaignListSchema = z.object({
  campaigns: z.array(CampaignSchema),
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type CampaignList = z.infer<typeof CampaignListSchema>;

export const CampaignUserParamsSchema = z.object({ email: text() });
