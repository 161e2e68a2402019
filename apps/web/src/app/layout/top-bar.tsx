import type { SessionUser } from '@herald/contract';
import { AlertsBell } from '../../features/alerts/alerts-bell';

/** The bar above the page: the alerts bell and who is signed in. */
export function TopBar({ user }: { user: SessionUser }) {
  return (
    <header className="bg-white border-bottom px-3 px-md-4 py-2 d-flex align-items-center justify-content-end gap-3">
      <AlertsBell />
      <div className="text-end lh-sm" data-testid="top-bar-user">
        <div className="fw-semibold">{user.name}</div>
        <div className="small text-muted">{user.role}</div>
      </div>
    </header>
  );
}
