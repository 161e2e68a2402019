import { Navigate } from 'react-router';
import { ROLES } from '@herald/contract';
import { useSession } from '../lib/auth-store';
import { HOME_BY_ROLE } from './paths';

/** `/` sends each role to its dashboard, anyone else to /login. */
export function IndexRedirect() {
  const session = useSession();
  const role = session?.user.role;
  if (!role || !ROLES.includes(role)) return <Navigate to="/login" replace />;
  return <Navigate to={HOME_BY_ROLE[role]} replace />;
}
