import { Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { LOGIN_PATH, SET_PASSWORD_PATH, UNAUTHORIZED_PATH } from '@herald/contract';
import { lazyNamed } from '../lib/lazy-named';
import { UnauthorizedPage } from './unauthorized-page';
import { PlainSpinner } from '../components/plain-spinner';

// Declarative routing with lazily loaded screens: the data router would add ~16 kB gzipped to
// the first screen (docs/performance.md, bundle size), and the app needs none of its loaders.
// The login page and the signed-in app (app-routes.tsx: layout, route table, screens) are chunks
// of their own.
const LoginPage = lazyNamed(
  () => import('../features/auth/login-page'),
  'LoginPage',
  <PlainSpinner />,
);
const SetPasswordPage = lazyNamed(
  () => import('../features/auth/set-password-page'),
  'SetPasswordPage',
  <PlainSpinner />,
);
const AppRoutes = lazyNamed(() => import('./app-routes'), 'AppRoutes', <PlainSpinner />);

/**
 * Fetches the chunk the first render of `pathname` needs (main.tsx waits for it, so the page
 * draws at once instead of behind a spinner); for a signed-in screen also starts that screen's
 * chunk, which its layout does not wait for (docs/performance.md, Page speed).
 */
export async function preloadRoute(pathname: string): Promise<void> {
  if (pathname === LOGIN_PATH) await LoginPage.preload();
  else if (pathname === SET_PASSWORD_PATH) await SetPasswordPage.preload();
  else if (pathname !== UNAUTHORIZED_PATH) {
    const routes = await import('./app-routes');
    await AppRoutes.preload();
    routes.preloadScreen(pathname);
  }
}

export function App() {
  return (
    <BrowserRouter>
      <Suspense fallback={<PlainSpinner />}>
        <Routes>
          <Route path={LOGIN_PATH} element={<LoginPage />} />
          <Route path={SET_PASSWORD_PATH} element={<SetPasswordPage />} />
          <Route path={UNAUTHORIZED_PATH} element={<UnauthorizedPage />} />
          <Route path="/*" element={<AppRoutes />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
