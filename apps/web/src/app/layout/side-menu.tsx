import { useState } from 'react';
import { NavLink, useNavigate } from 'react-router';
import type { SessionUser } from '@herald/contract';
import { clearSession } from '../../lib/auth-store';
import { formatDate } from '../../lib/format';
import { MENUS, menuHref } from '../paths';
import { Brand } from './brand';

/**
 * The side menu: branding, greeting, the role's links with the current one
 * highlighted, and Logout. Below the md breakpoint it stacks on top and the links fold away.
 */
export function SideMenu({ user }: { user: SessionUser }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);

  function logout() {
    clearSession();
    navigate('/login', { replace: true });
  }

  return (
    // The dark column runs the page's full height; its contents stay in the window (sticky,
    // scrolling on their own when taller than the window) while a long page scrolls.
    <aside className="app-sidebar text-white">
      <div className="app-sidebar-inner d-flex flex-column p-3">
        <div className="d-flex align-items-center justify-content-between gap-2 mb-3">
          <Brand />
          <button
            type="button"
            className="btn btn-outline-light btn-sm d-md-none"
            aria-expanded={open}
            aria-controls="app-menu-links"
            onClick={() => setOpen((o) => !o)}
          >
            Menu
          </button>
        </div>
        <div className="mb-3">
          <div className="fw-semibold text-break">Welcome, {user.name}</div>
          <div className="small text-white-50">Member since {formatDate(user.createdAt)}</div>
        </div>
        <nav
          id="app-menu-links"
          aria-label="Main menu"
          className={`${open ? 'd-block' : 'd-none'} d-md-block mb-3`}
        >
          <ul className="nav flex-column gap-1">
            {MENUS[user.role].map((item) => (
              <li className="nav-item" key={item.key}>
                <NavLink
                  to={menuHref(item.key, user.id)}
                  className="nav-link"
                  onClick={() => setOpen(false)}
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" className="btn btn-outline-light btn-sm mt-md-auto" onClick={logout}>
          Logout
        </button>
      </div>
    </aside>
  );
}
