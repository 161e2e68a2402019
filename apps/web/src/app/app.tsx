import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { RequireRole } from './guard';
import { IndexRedirect } from './index-redirect';
import { UnauthorizedPage } from './unauthorized-page';
import { UnavailablePage } from './unavailable-page';
import { routes, type RouteDef, type RouteKey } from './paths';

// Declarative routing with React.lazy screens: the data router would add ~16 kB gzipped to the
// first screen (performance.md target 21), and the app needs none of its loaders.
const LoginPage = lazy(() =>
  import('../features/auth/login-page').then((m) => ({ default: m.LoginPage })),
);
const AppLayout = lazy(() => import('./layout/app-layout').then((m) => ({ default: m.AppLayout })));
const DashboardPage = lazy(() =>
  import('../features/dashboard/dashboard-page').then((m) => ({ default: m.DashboardPage })),
);
const UsersPage = lazy(() =>
  import('../features/users/users-page').then((m) => ({ default: m.UsersPage })),
);
const CreditsPage = lazy(() =>
  import('../features/credits/credits-page').then((m) => ({ default: m.CreditsPage })),
);
const HistoryPage = lazy(() =>
  import('../features/history/history-page').then((m) => ({ default: m.HistoryPage })),
);
const CampaignsPage = lazy(() =>
  import('../features/campaigns/campaigns-page').then((m) => ({ default: m.CampaignsPage })),
);
// A screen that combines several domains lives under screens/, beside the features it composes.
const ReportsPage = lazy(() =>
  import('../screens/reports/reports-page').then((m) => ({ default: m.ReportsPage })),
);
const TicketsPage = lazy(() =>
  import('../features/tickets/tickets-page').then((m) => ({ default: m.TicketsPage })),
);
const ManageAnnouncementsPage = lazy(() =>
  import('../features/announcements/manage-announcements-page').then((m) => ({
    default: m.ManageAnnouncementsPage,
  })),
);
const AnnouncementHistoryPage = lazy(() =>
  import('../features/announcements/announcement-history-page').then((m) => ({
    default: m.AnnouncementHistoryPage,
  })),
);
const ProfilePage = lazy(() =>
  import('../features/profile/profile-page').then((m) => ({ default: m.ProfilePage })),
);

const screens: Partial<Record<RouteKey, LazyExoticComponent<ComponentType>>> = {
  admin: DashboardPage,
  resellerDashboard: DashboardPage,
  subResellerDashboard: DashboardPage,
  userDashboard: DashboardPage,
  users: UsersPage,
  profile: ProfilePage,
  credits: CreditsPage,
  resellerCredits: CreditsPage,
  history: HistoryPage,
  campaigns: CampaignsPage,
  reports: ReportsPage,
  adminAnnouncements: ManageAnnouncementsPage,
  announcementsHistory: AnnouncementHistoryPage,
  tickets: TicketsPage,
};

function Loading() {
  return (
    <div className="d-flex justify-content-center p-5">
      <div className="spinner-border text-primary" role="status">
        <span className="visually-hidden">Loading...</span>
      </div>
    </div>
  );
}

function screenFor(key: RouteKey, def: RouteDef) {
  const Screen = screens[key];
  return (
    <RequireRole roles={def.roles}>
      {Screen && def.ready ? <Screen /> : <UnavailablePage title={def.title} />}
    </RequireRole>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/unauthorized" element={<UnauthorizedPage />} />
          <Route path="/" element={<AppLayout />}>
            <Route index element={<IndexRedirect />} />
            {(Object.entries(routes) as [RouteKey, RouteDef][]).map(([key, def]) => (
              <Route key={key} path={def.path} element={screenFor(key, def)} />
            ))}
          </Route>
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
