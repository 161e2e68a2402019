import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { RequireRole } from './guard';
import { IndexRedirect } from './index-redirect';
import { AppLayout } from './layout/app-layout';
import { UnavailablePage } from './unavailable-page';
import { routes, type RouteDef, type RouteKey } from './paths';

// Everything behind the login: the layout, the route table and its screens. It is a chunk of its
// own, loaded after the login, so each new screen (and its import map) grows this chunk and never
// the first screen's bundle (docs/performance.md, bundle size).
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
const AnalyticsPage = lazy(() =>
  import('../features/analytics/analytics-page').then((m) => ({ default: m.AnalyticsPage })),
);
const ProfilePage = lazy(() =>
  import('../features/profile/profile-page').then((m) => ({ default: m.ProfilePage })),
);
const WhitelabelSettingsPage = lazy(() =>
  import('../features/whitelabel/whitelabel-settings-page').then((m) => ({
    default: m.WhitelabelSettingsPage,
  })),
);
const BackupPage = lazy(() =>
  import('../features/backup/backup-page').then((m) => ({ default: m.BackupPage })),
);
const StoragePage = lazy(() =>
  import('../features/backup/storage-page').then((m) => ({ default: m.StoragePage })),
);

const DeliverySettingsPage = lazy(() =>
  import('../features/delivery/delivery-settings-page').then((m) => ({
    default: m.DeliverySettingsPage,
  })),
);

const screens: Partial<Record<RouteKey, LazyExoticComponent<ComponentType>>> = {
  admin: DashboardPage,
  resellerDashboard: DashboardPage,
  subResellerDashboard: DashboardPage,
  userDashboard: DashboardPage,
  users: UsersPage,
  profile: ProfilePage,
  whitelabel: WhitelabelSettingsPage,
  credits: CreditsPage,
  resellerCredits: CreditsPage,
  history: HistoryPage,
  analytics: AnalyticsPage,
  campaigns: CampaignsPage,
  reports: ReportsPage,
  adminAnnouncements: ManageAnnouncementsPage,
  announcementsHistory: AnnouncementHistoryPage,
  tickets: TicketsPage,
  backup: BackupPage,
  storage: StoragePage,
  deliverySettings: DeliverySettingsPage,
};

function screenFor(key: RouteKey, def: RouteDef) {
  const Screen = screens[key];
  return (
    <RequireRole roles={def.roles}>
      {Screen && def.ready ? <Screen /> : <UnavailablePage title={def.title} />}
    </RequireRole>
  );
}

/** The signed-in app under `/*`: the layout with every screen of the route table. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route index element={<IndexRedirect />} />
        {(Object.entries(routes) as [RouteKey, RouteDef][]).map(([key, def]) => (
          <Route key={key} path={def.path} element={screenFor(key, def)} />
        ))}
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
