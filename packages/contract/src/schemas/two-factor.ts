import { z } from 'zod';
import { SessionUserSchema } from './auth.js';
import { TWO_FACTOR_DIGITS } from '../two-factor.js';
import { twoFactorMessages as m } from '../two-factor-messages.js';
import { AuditRetentionDaysSchema } from './audit-log.js';

/** A six-digit authenticator code (enrolment, regenerating recovery codes). */
export const AuthenticatorCodeSchema = z
  .string({ error: m.codeRequired })
  .trim()
  .regex(new RegExp(`^\\d{${TWO_FACTOR_DIGITS}}$`), m.codeDigits);

/** An authenticator code or a recovery code (sign-in, turning two-factor off). */
export const AnyTwoFactorCodeSchema = z
  .string({ error: m.codeRequired })
  .trim()
  .min(1, m.codeRequired)
  .max(64, m.codeWrong);

/** POST /api/login answers this instead of a session when the account has two-factor on. */
export const LoginChallengeSchema = z.object({
  twoFactorRequired: z.literal(true),
  /** Signed, short-lived and good for this step only: it is not a session. */
  challenge: z.string(),
});
export type LoginChallenge = z.infer<typeof LoginChallengeSchema>;

export const LoginAnswerSchema = z.union([
  z.object({ token: z.string(), user: SessionUserSchema }),
  LoginChallengeSchema,
]);
export type LoginAnswer = z.infer<typeof LoginAnswerSchema>;

/** POST /api/login/two-factor: the challenge and an authenticator or recovery code. */
export const TwoFactorLoginBodySchema = z.object({
  challenge: z.string({ error: m.challengeExpired }).min(1, m.challengeExpired).max(2000),
  code: AnyTwoFactorCodeSchema,
});
export type TwoFactorLoginBody = z.infer<typeof TwoFactorLoginBodySchema>;

/** GET /api/two-factor: the caller's own state. */
export const TwoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  /** The Admin's setting holds the caller's role to two-factor sign-in. */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

/** POST /api/two-factor/setup: a new secret to scan; it counts once confirmed with a code. */
export const TwoFactorSetupReplySchema = z.object({
  secret: z.string(),
  uri: z.string(),
  /** The otpauth URI as a QR code: an SVG data URL (the CSP allows data: images). */
  qrCode: z.string(),
});
export type TwoFactorSetupReply = z.infer<typeof TwoFactorSetupReplySchema>;

export const TwoFactorConfirmBodySchema = z.object({ code: AuthenticatorCodeSchema });
export type TwoFactorConfirmBody = z.infer<typeof TwoFactorConfirmBodySchema>;

/** Recovery codes, shown this once: only their hashes are kept. */
export const RecoveryCodesReplySchema = z.object({
  message: z.string(),
  recoveryCodes: z.array(z.string()),
});
export type RecoveryCodesReply = z.infer<typeof RecoveryCodesReplySchema>;

export const TwoFactorDisableBodySchema = z.object({
  password: z.string({ error: m.passwordRequired }).min(1, m.passwordRequired).max(1024),
  code: AnyTwoFactorCodeSchema,
});
export type TwoFactorDisableBody = z.infer<typeof TwoFactorDisableBodySchema>;

export const RecoveryCodesBodySchema = z.object({ code: AuthenticatorCodeSchema });
export type RecoveryCodesBody = z.infer<typeof RecoveryCodesBodySchema>;

/** PUT /api/settings/security (Admin): a retention left out keeps the current one. */
export const SecuritySettingsSchema = z.object({
  requireTwoFactor: z.boolean({ error: m.settingInvalid }),
  auditRetentionDays: AuditRetentionDaysSchema.optional(),
});
export type SecuritySettings = z.infer<typeof SecuritySettingsSchema>;

/** GET and PUT /api/settings/security answer the whole settings. */
export const SecuritySettingsReplySchema = SecuritySettingsSchema.required();
export type SecuritySettingsReply = z.infer<typeof SecuritySettingsReplySchema>;
