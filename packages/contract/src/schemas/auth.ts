import { z } from 'zod';
import { ROLES, USER_STATUSES } from '../roles.js';
import { OTP_LENGTH } from '../limits.js';
import { EmailSchema, PasswordSchema } from './common.js';

export const LoginBodySchema = z.object({
  email: EmailSchema,
  // Login accepts any non-empty password: the policy applies when a password is set, not here.
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.').max(1024),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

/** The logged-in user as stored by the browser plus the 'Member since' date. */
export const SessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  name: z.string(),
  status: z.enum(USER_STATUSES),
  createdAt: z.string(),
  /** Set after an Admin reset: until the user changes it, only the change is allowed. */
  mustChangePassword: z.boolean().optional(),
  /** The account signs in with a code after the password (two-factor sign-in). */
  twoFactorEnabled: z.boolean().optional(),
  /** The Admin requires two-factor sign-in for the role and it is not set up: only that is allowed. */
  mustEnrolTwoFactor: z.boolean().optional(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

export const LoginReplySchema = z.object({ token: z.string(), user: SessionUserSchema });
export type LoginReply = z.infer<typeof LoginReplySchema>;

export const ForgotPasswordBodySchema = z.object({ email: EmailSchema });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBodySchema>;

export const ResetPasswordBodySchema = z.object({
  email: EmailSchema,
  otp: z
    .string({ error: 'OTP is required.' })
    .trim()
    .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), `The OTP is ${OTP_LENGTH} digits.`),
  newPassword: PasswordSchema,
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBodySchema>;

export const ChangePasswordBodySchema = z
  .object({
    currentPassword: z
      .string({ error: 'Current password is required.' })
      .min(1, 'Current password is required.')
      .max(1024),
    newPassword: PasswordSchema,
    confirmPassword: z.string({ error: 'Confirm the new password.' }),
  })
  .refine((b) => b.newPassword === b.confirmPassword, {
    message: 'New passwords do not match.',
    path: ['confirmPassword'],
  });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

/** Change password answers with a fresh token: the change ends every older one. */
export const ChangePasswordReplySchema = z.object({ message: z.string(), token: z.string() });
export type ChangePasswordReply = z.infer<typeof ChangePasswordReplySchema>;

export const AdminResetPasswordBodySchema = z.object({
  newPassword: PasswordSchema,
});
export type AdminResetPasswordBody = z.infer<typeof AdminResetPasswordBodySchema>;

/**
 * POST /api/set-password: the token of a new user's mailed link and the password to set. The
 * form and the server check the same confirmation.
 */
const SetPasswordTokenSchema = z
  .string({ error: 'The link is incomplete.' })
  .trim()
  .min(16, 'The link is incomplete.')
  .max(200, 'The link is incomplete.');

/**
 * POST /api/set-password/check: whether the link still works, answered with the branding its user
 * will see (the page shows the company, not the house name), or 400 with the same message a use
 * of a spent link gets.
 */
export const SetPasswordCheckBodySchema = z.object({ token: SetPasswordTokenSchema });
export type SetPasswordCheckBody = z.infer<typeof SetPasswordCheckBodySchema>;

export const SetPasswordBodySchema = z
  .object({
    token: SetPasswordTokenSchema,
    newPassword: PasswordSchema,
    confirmPassword: z.string({ error: 'Confirm the new password.' }),
  })
  .refine((b) => b.newPassword === b.confirmPassword, {
    message: 'New passwords do not match.',
    path: ['confirmPassword'],
  });
export type SetPasswordBody = z.infer<typeof SetPasswordBodySchema>;
