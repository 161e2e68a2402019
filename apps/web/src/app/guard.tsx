import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { UNAUTHORIZED_PATH, type Role } from '@herald/contract';
import { useSession } from '../lib/auth-store';

/** Route guard: no stored user → /login; role not allowed → /unauthorized. */
export function RequireRole({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const session = useSession();
  if (!session) return <Navigate to="/login" replace />;
  if (!roles.includes(session.user.role)) return <Navigate to={UNAUTHORIZED_PATH} replace />;
  return <>{children}</>;
}
