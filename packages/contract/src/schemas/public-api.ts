import { z } from 'zod';
import { DELIVERY_STATES } from '../delivery.js';
import { MAX_CAMPAIGN_IMAGES } from '../limits.js';
import { MAX_RECIPIENTS } from '../recipients.js';
import { server as msg } from '../server-messages.js';
import { text } from './common.js';
import {
  CAMPAIGN_FILE_FIELDS,
  CAMPAIGN_LIST_MAX,
  CampaignListStatusSchema,
  CampaignSchema,
  CampaignWithFilesSchema,
  CreateCampaignFieldsSchema,
} from './campaigns.js';
import { CAMPAIGN_LIST_DEFAULT } from '../links.js';
import { CreditTransactionSchema, CreditTypeSchema } from './credits.js';
import { SuppressionPhoneSchema, SuppressionSchema } from './suppressions.js';

/**
 * The versioned public API under /api/v1 (docs/api.md, The v1 API). Its answers are its own
 * (lists are `{ items, nextCursor }`, errors carry a machine `code`), built from the same
 * schemas as the web app's /api routes, whose answers stay as they are. The OpenAPI document at
 * /api/v1/openapi.json is generated from these schemas.
 */

export const PUBLIC_API_PREFIX = '/api/v1';

/**
 * The machine codes of the v1 errors, stable across releases: a client branches on `code`, and
 * shows `message`, which may be reworded. Each status has one code, but for 409 an
 * `insufficient_credits` is told apart from other conflicts.
 */
export const API_ERROR_CODES = [
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'insufficient_credits',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal',
  'insufficient_storage',
  'server_busy',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** The code of an error that has none of its own, by its HTTP status. */
export function apiErrorCodeOf(status: number): ApiErrorCode {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    case 503:
      return 'server_busy';
    case 507:
      return 'insufficient_storage';
    default:
      return status >= 500 ? 'internal' : 'validation_failed';
  }
}

/** Every v1 error: `{ message, code }`. */
export const ApiErrorSchema = z
  .object({ message: z.string(), code: z.enum(API_ERROR_CODES) })
  .meta({ id: 'Error' });
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** The error statuses every v1 route may answer, for the document. */
export const PUBLIC_ERROR_RESPONSES = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  403: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
  429: ApiErrorSchema,
} as const;

const pageLimit = (max: number, fallback: number) =>
  z.coerce
    .number({ error: msg.pageLimit(max) })
    .int(msg.pageLimit(max))
    .min(1, msg.pageLimit(max))
    .max(max, msg.pageLimit(max))
    .default(fallback);

/** A keyset page: `nextCursor` is the `cursor` of the next one, null at the end. */
const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

export const PublicCampaignSchema = CampaignWithFilesSchema.meta({ id: 'Campaign' });

/**
 * POST /api/v1/campaigns as JSON: the web form's fields, with the recipients as an array (the
 * same rules read each entry: docs/product.md, How numbers are read) and the template's
 * values as an array rather than JSON text.
 */
export const PublicCreateCampaignSchema = CreateCampaignFieldsSchema.omit({
  to: true,
  templateValues: true,
}).extend({
  recipients: z
    .array(text().max(64, msg.fieldTooLong))
    .min(1, msg.campaignNoRecipients)
    .max(MAX_RECIPIENTS, msg.campaignTooManyRecipients),
  templateValues: z.array(text()).max(100, msg.templateValuesInvalid).optional(),
});
export type PublicCreateCampaign = z.input<typeof PublicCreateCampaignSchema>;
export type PublicCreateCampaignFields = z.output<typeof PublicCreateCampaignSchema>;

const binary = () => z.string().meta({ format: 'binary' });
/**
 * The multipart form of POST /api/v1/campaigns, as the web app sends it (documentation only:
 * the form is read and checked as it streams, campaigns.input.ts). `to` holds the recipients
 * separated by commas, spaces or new lines.
 */
export const PublicCreateCampaignFormSchema = CreateCampaignFieldsSchema.extend({
  ...Object.fromEntries(
    Object.keys(CAMPAIGN_FILE_FIELDS)
      .filter((f) => f !== 'images')
      .map((f) => [f, binary().optional()]),
  ),
  images: z.array(binary()).max(MAX_CAMPAIGN_IMAGES).optional(),
});

export const PublicCreateCampaignReplySchema = z.object({
  message: z.string(),
  campaign: PublicCampaignSchema,
});

export const PublicCampaignListQuerySchema = z.object({
  cursor: z.uuid(msg.invalidCursor).optional(),
  limit: pageLimit(CAMPAIGN_LIST_MAX, CAMPAIGN_LIST_DEFAULT),
  /** One status, or AWAITING_APPROVAL_FILTER for Submitted and Pending Approval together. */
  status: CampaignListStatusSchema.optional(),
});
export const PublicCampaignPageSchema = page(CampaignSchema);

/** One recipient and where its message is; `state` is null until the engine takes it. */
export const PublicRecipientSchema = z.object({
  phone: z.string(),
  state: z.enum(DELIVERY_STATES).nullable(),
  attempts: z.number().int(),
  errorCode: z.string().nullable(),
  errorText: z.string().nullable(),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  readAt: z.string().nullable(),
  failedAt: z.string().nullable(),
});
export type PublicRecipient = z.infer<typeof PublicRecipientSchema>;
export const PublicRecipientPageSchema = page(PublicRecipientSchema);

export const PublicCampaignReplySchema = z.object({
  message: z.string(),
  campaign: CampaignSchema,
});

export const PublicBalanceSchema = z.object({
  creditType: CreditTypeSchema,
  balance: z.number().int(),
});
export const PublicBalancesSchema = z.object({ items: z.array(PublicBalanceSchema) });
export type PublicBalances = z.infer<typeof PublicBalancesSchema>;

export const PublicLedgerPageSchema = page(CreditTransactionSchema);

export const PublicSuppressionPageSchema = page(SuppressionSchema);

/** DELETE /api/v1/suppressions/{number}: the number as the list holds it or as typed. */
export const PublicSuppressionParamsSchema = z.object({ number: SuppressionPhoneSchema });
