import {
  ChangePasswordBodySchema,
  loadCommonPasswords,
  type ChangePasswordBody,
} from '@herald/contract';
import { firstIssues, type FieldErrors } from '../../components/field-errors';

export const EMPTY_CHANGE_PASSWORD: ChangePasswordBody = {
  currentPassword: '',
  newPassword: '',
  confirmPassword: '',
};

/**
 * Change Password checked with the server's schema, common-password rule included. The list
 * loads here, on the first submit (a chunk of its own, never part of the first screen); if it
 * cannot load, the server's answer carries the same rule.
 */
export async function validateChangePassword(
  values: ChangePasswordBody,
): Promise<{ data: ChangePasswordBody } | { errors: FieldErrors }> {
  await loadCommonPasswords().catch(() => undefined);
  const parsed = ChangePasswordBodySchema.safeParse(values);
  return parsed.success ? { data: parsed.data } : { errors: firstIssues(parsed.error) };
}
