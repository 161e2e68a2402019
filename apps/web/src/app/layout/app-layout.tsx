import { Suspense, useEffect, useState, type MouseEvent } from 'react';
import { SESSION_ERROR_REDIRECT_MS, ui } from '@herald/contract';
import { Navigate, Outlet, useNavigate } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { setUnauthorizedHandler } from '../../lib/api-client';
import { clearSession, useSession } from '../../lib/auth-store';
import { lazyNamed } from '../../lib/lazy-named';
import { createQueryClient } from './query-client';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';
import './app-layout.css';

// Only a user whose password an Admin reset ever needs it: its own chunk.
const ForcedChangePasswordPage = lazyNamed(
  () => import('../../features/profile/forced-change-password-page'),
  'ForcedChangePasswordPage',
);

// Only a user the Admin's setting holds to set up two-factor sign-in needs it: its own chunk.
const ForcedTwoFactorPage = lazyNamed(
  () => import('../../features/profile/two-factor/forced-two-factor-page'),
  'ForcedTwoFactorPage',
);

/**
 * Focus moves to main itself (tabIndex -1), so the next Tab continues inside the page; the
 * router would otherwise see the hash link as a navigation.
 */
function skipToMain(e: MouseEvent<HTMLAnchorElement>) {
  e.preventDefault();
  const main = document.getElementById('main-content');
  main?.focus();
  main?.scrollIntoView();
}

/**
 * The signed-in shell: side menu, top bar and the page. Without a session it sends
 * the visitor to /login. A 401 on any authenticated call means the session ended (blocked,
 * password changed, expired): the message shows, and 2 s later the session is cleared and the
 * visitor goes to /login. A user whose password an Admin reset sees only the forced
 * change-password screen until they choose their own (the server refuses everything else);
 * one the Admin's setting holds to two-factor sign-in sees only its set-up until it is on.
 */
export function AppLayout() {
  const session = useSession();
  const navigate = useNavigate();
  const [queryClient] = useState(createQueryClient);
  const [expired, setExpired] = useState(false);

  useEffect(() => {
    setUnauthorizedHandler(() => setExpired(true));
    return () => setUnauthorizedHandler(undefined);
  }, []);

  useEffect(() => {
    if (!expired) return;
    const timer = setTimeout(() => {
      clearSession();
      queryClient.clear();
      navigate('/login', { replace: true });
    }, SESSION_ERROR_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [expired, navigate, queryClient]);

  if (!session) return <Navigate to="/login" replace />;

  if (session.user.mustChangePassword) {
    return (
      <QueryClientProvider client={queryClient}>
        <ForcedChangePasswordPage />
      </QueryClientProvider>
    );
  }

  if (session.user.mustEnrolTwoFactor) {
    return (
      <QueryClientProvider client={queryClient}>
        <ForcedTwoFactorPage />
      </QueryClientProvider>
    );
  }

  return (
    <QueryClientProvider client={queryClient}>
      {/* The first Tab stop: past the menu and the top bar (WCAG 2.4.1; docs/product.md,
          Accessibility). Hidden until focused. */}
      <a href="#main-content" className="skip-link visually-hidden-focusable" onClick={skipToMain}>
        {ui.skipToMain}
      </a>
      <div className="d-md-flex min-vh-100">
        <SideMenu user={session.user} />
        <div className="app-page flex-grow-1 d-flex flex-column">
          <TopBar user={session.user} />
          <main id="main-content" tabIndex={-1} className="flex-grow-1 p-3 p-md-4">
            {expired && (
              <div className="alert alert-danger" role="alert">
                {ui.profile.sessionExpired}
              </div>
            )}
            <Suspense
              fallback={
                <div className="spinner-border text-primary" role="status">
                  <span className="visually-hidden">Loading...</span>
                </div>
              }
            >
              <Outlet />
            </Suspense>
          </main>
        </div>
      </div>
    </QueryClientProvider>
  );
}
