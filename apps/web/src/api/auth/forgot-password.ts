import type { ForgotPasswordBody, MessageBody } from '@herald/contract';
import { api } from '../../lib/api-client';

/** POST /api/forgot-password: sends an OTP; answers the same whether or not the email exists. */
export function forgotPassword(body: ForgotPasswordBody): Promise<MessageBody> {
  return api<MessageBody>('/forgot-password', { method: 'POST', body });
}
