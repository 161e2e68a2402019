import { z } from 'zod';
import { ROLES, USER_STATUSES } from '../roles.js';
import { citiesOf, STATES } from '../geo.js';
import { USERS_PAGE_DEFAULT, USERS_PAGE_MAX, USERS_SEARCH_MAX } from '../limits.js';
import { server as msg } from '../server-messages.js';
import { EmailSchema, PasswordSchema, optionalText, text, createdAtIdCursor } from './common.js';

const NameSchema = text({ error: 'Name is required.' })
  .trim()
  .min(1, 'Name is required.')
  .max(120, 'Name must be at most 120 characters.');

const PhoneSchema = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v.replace(/[\s\-().]/g, '') : undefined))
  .pipe(
    z
      .string()
      .regex(/^\+?\d{7,15}$/, 'Enter a phone number of 7 to 15 digits.')
      .optional(),
  );

const PincodeSchema = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(
    z
      .string()
      .regex(/^\d{6}$/, 'Pincode is 6 digits.')
      .optional(),
  );

const StateSchema = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.enum(STATES, 'Choose a state from the list.').optional());

/** Contact and address fields shared by the create and edit forms. */
const profileFields = {
  firmName: optionalText(200, 'Firm/company'),
  mobile: PhoneSchema,
  contactPerson: optionalText(120, 'Contact person'),
  contactPersonPhone: PhoneSchema,
  address: optionalText(500, 'Address'),
  state: StateSchema,
  city: optionalText(80, 'City'),
  pincode: PincodeSchema,
};

function cityMatchesState(b: { state?: string | undefined; city?: string | undefined }): boolean {
  if (!b.city) return true;
  return !!b.state && citiesOf(b.state).includes(b.city);
}
const cityRule = { message: 'Choose a city from the selected state.', path: ['city'] };

export const CreateUserBodySchema = z
  .object({
    name: NameSchema,
    email: EmailSchema,
    password: z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined))
      .pipe(PasswordSchema.optional()),
    role: z.enum(ROLES, 'Choose a role.'),
    ...profileFields,
  })
  .refine(cityMatchesState, cityRule);
export type CreateUserBody = z.input<typeof CreateUserBodySchema>;
export type CreateUserInput = z.output<typeof CreateUserBodySchema>;

/**
 * Edit User: multipart fields (all strings). Fields a caller may not change are rejected by the
 * service, not silently dropped.
 */
export const UpdateUserBodySchema = z
  .object({
    name: NameSchema,
    email: EmailSchema,
    role: z.enum(ROLES, 'Choose a role.').optional(),
    status: z.enum(USER_STATUSES, 'Choose a status.').optional(),
    ownNumber: PhoneSchema,
    companyName: optionalText(120, 'Company name'),
    /** 'true' removes the current logo. */
    removeLogo: z.enum(['true', 'false']).optional(),
    ...profileFields,
  })
  .refine(cityMatchesState, cityRule);
export type UpdateUserBody = z.input<typeof UpdateUserBodySchema>;
export type UpdateUserInput = z.output<typeof UpdateUserBodySchema>;

export const UserSchema = z.object({
  id: z.string(),
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  /**
   * Creator's email; null for the first Admin (shown as 'Admin') and when the creator is outside
   * the viewer's scope (a user's own profile never names the reseller above it).
   */
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  ownNumber: z.string().nullable(),
  companyName: z.string().nullable(),
  companyLogo: z.string().nullable(),
  contactPerson: z.string().nullable(),
  contactPersonPhone: z.string().nullable(),
  mobile: z.string().nullable(),
  firmName: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  pincode: z.string().nullable(),
  /** Two-factor sign-in is on (its secrets never leave the server). */
  twoFactorEnabled: z.boolean(),
});
export type User = z.infer<typeof UserSchema>;

/**
 * A GET /api/users cursor: the last user's created_at in microseconds since the epoch and its
 * id, as the previous page's `nextCursor` gave them.
 */
export const UserCursorSchema = createdAtIdCursor();

const pageLimitMessage = msg.pageLimit(USERS_PAGE_MAX);

/**
 * GET /api/users: the caller's scope without the caller, newest first, `limit` at a time.
 * `search` keeps users whose name or email contains it (any case). Empty values mean "not set".
 */
export const UsersQuerySchema = z.object({
  search: text()
    .trim()
    .max(USERS_SEARCH_MAX, msg.searchTooLong(USERS_SEARCH_MAX))
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** Keeps users of this role only (the ticket screen's reseller list); blank means any. */
  role: z
    .enum(['', ...ROLES], 'Choose a role.')
    .optional()
    .transform((v) => (v ? v : undefined)),
  cursor: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(UserCursorSchema.optional()),
  limit: z.coerce
    .number({ error: pageLimitMessage })
    .int(pageLimitMessage)
    .min(1, pageLimitMessage)
    .max(USERS_PAGE_MAX, pageLimitMessage)
    .default(USERS_PAGE_DEFAULT),
});
export type UsersQuery = z.input<typeof UsersQuerySchema>;
export type UsersFilters = z.output<typeof UsersQuerySchema>;

export const UserPageSchema = z.object({
  users: z.array(UserSchema),
  /** Pass as `cursor` for the next `limit` users; null when none are left. */
  nextCursor: z.string().nullable(),
});
export type UserPage = z.infer<typeof UserPageSchema>;

export const CreateUserReplySchema = z.object({
  message: z.string(),
  user: UserSchema,
  /** Present only when the server generated the password: shown once to the creator. */
  generatedPassword: z.string().optional(),
});
export type CreateUserReply = z.infer<typeof CreateUserReplySchema>;

export const UpdateUserReplySchema = z.object({ message: z.string(), user: UserSchema });
export type UpdateUserReply = z.infer<typeof UpdateUserReplySchema>;

/** Profile credit balance row (filled by the credits module). */
export const ProfileBalanceSchema = z.object({
  creditType: z.string(),
  totalAdded: z.number(),
  totalUsed: z.number(),
  remaining: z.number(),
});
/** Profile recent campaign row (filled by the campaigns module). */
export const ProfileCampaignSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  creditType: z.string(),
  recipientCount: z.number(),
  status: z.string(),
  /** Made with a test API key (docs/api.md, Test keys). */
  test: z.boolean(),
});
export const ProfileSchema = z.object({
  user: UserSchema,
  balances: z.array(ProfileBalanceSchema),
  recentCampaigns: z.array(ProfileCampaignSchema),
});
export type Profile = z.infer<typeof ProfileSchema>;
