import type { MessageBody, SetPasswordBody } from '@herald/contract';
import { api } from '../../lib/api-client';

/** POST /api/set-password with the token of a new user's mailed link and the chosen password. */
export function setPassword(body: SetPasswordBody): Promise<MessageBody> {
  return api<MessageBody>('/set-password', { method: 'POST', body });
}
