import type { LoginBody, LoginReply } from '@herald/contract';
import { api } from '../../lib/api-client';

/**
 * POST /api/login. A mutation without react-query: the login route must stay small, so the
 * screen keeps its own pending/error state.
 */
export function login(body: LoginBody): Promise<LoginReply> {
  return api<LoginReply>('/login', { method: 'POST', body });
}
