import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { SET_PASSWORD_PATH } from '@herald/contract';
import { UnauthorizedPage } from './unauthorized-page';

// Declarative routing with React.lazy screens: the data router would add ~16 kB gzipped to the
// first screen (docs/performance.md, bundle size), and the app needs none of its loaders. The login
// page and the signed-in app (app-routes.tsx: layout, route table, screens) are chunks of their
// own.
const LoginPage = lazy(() =>
  import('../features/auth/login-page').then((m) => ({ default: m.LoginPage })),
);
const SetPasswordPage = lazy(() =>
  import('../features/auth/set-password-page').then((m) => ({ default: m.SetPasswordPage })),
);
const AppRoutes = lazy(() => import('./app-routes').then((m) => ({ default: m.AppRoutes })));

function Loading() {
  return (
    <div className="d-flex justify-content-center p-5">
      <div className="spinner-border text-primary" role="status">
        <span className="visually-hidden">Loading...</span>
      </div>
    </div>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path={SET_PASSWORD_PATH} element={<SetPasswordPage />} />
          <Route path="/unauthorized" element={<UnauthorizedPage />} />
          <Route path="/*" element={<AppRoutes />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
