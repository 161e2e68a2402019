import type { MessageBody, ResetPasswordBody } from '@herald/contract';
import { api } from '../../lib/api-client';

/** POST /api/reset-password with the emailed OTP and the new password. */
export function resetPassword(body: ResetPasswordBody): Promise<MessageBody> {
  return api<MessageBody>('/reset-password', { method: 'POST', body });
}
