import type { ComponentType } from 'react';
import { matchPath, Navigate, Route, Routes } from 'react-router';
import { lazyNamed, type Preloadable } from '../lib/lazy-named';
import { LoadingSpinner } from '../components/loading-spinner';
import { RequireRole } from './guard';
import { IndexRedirect } from './index-redirect';
import { AppLayout } from './layout/app-layout';
import { UnavailablePage } from './unavailable-page';
import { REDIRECTS, routes, type RouteDef, type RouteKey } from './paths';

// Everything behind the login: the layout, the route table and its screens. It is a chunk of its
// own, loaded after the login, so each new screen (and its import map) grows this chunk and never
// the first screen's bundle (docs/performance.md, bundle size).
/**
 * A screen's chunk, a spinner in the page while it arrives (the menu and top bar are drawn).
 * `module` is the path `load` imports, from src/: a screen needs many chunks, which are then
 * named to the browser a few per task (lib/spread-preloads.ts).
 */
function screen<K extends string>(
  module: string,
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
) {
  return lazyNamed(load, name, <LoadingSpinner />, module);
}

const DashboardPage = screen(
  'features/dashboard/dashboard-page',
  () => import('../features/dashboard/dashboard-page'),
  'DashboardPage',
);
const UsersPage = screen(
  'features/users/users-page',
  () => import('../features/users/users-page'),
  'UsersPage',
);
const CreditsPage = screen(
  'features/credits/credits-page',
  () => import('../features/credits/credits-page'),
  'CreditsPage',
);
const HistoryPage = screen(
  'features/history/history-page',
  () => import('../features/history/history-page'),
  'HistoryPage',
);
const CampaignsPage = screen(
  'features/campaigns/campaigns-page',
  () => import('../features/campaigns/campaigns-page'),
  'CampaignsPage',
);
// A screen that combines several domains lives under screens/, beside the features it composes.
const ReportsPage = screen(
  'screens/reports/reports-page',
  () => import('../screens/reports/reports-page'),
  'ReportsPage',
);
const TicketsPage = screen(
  'features/tickets/tickets-page',
  () => import('../features/tickets/tickets-page'),
  'TicketsPage',
);
const SuppressionsPage = screen(
  'features/suppressions/suppressions-page',
  () => import('../features/suppressions/suppressions-page'),
  'SuppressionsPage',
);
const ApiKeysPage = screen(
  'features/api-keys/api-keys-page',
  () => import('../features/api-keys/api-keys-page'),
  'ApiKeysPage',
);
const ManageAnnouncementsPage = screen(
  'features/announcements/manage-announcements-page',
  () => import('../features/announcements/manage-announcements-page'),
  'ManageAnnouncementsPage',
);
const AnnouncementHistoryPage = screen(
  'features/announcements/announcement-history-page',
  () => import('../features/announcements/announcement-history-page'),
  'AnnouncementHistoryPage',
);
const AnalyticsPage = screen(
  'features/analytics/analytics-page',
  () => import('../features/analytics/analytics-page'),
  'AnalyticsPage',
);
const ProfilePage = screen(
  'features/profile/profile-page',
  () => import('../features/profile/profile-page'),
  'ProfilePage',
);
const WhitelabelSettingsPage = screen(
  'features/whitelabel/whitelabel-settings-page',
  () => import('../features/whitelabel/whitelabel-settings-page'),
  'WhitelabelSettingsPage',
);
const BackupPage = screen(
  'features/backup/backup-page',
  () => import('../features/backup/backup-page'),
  'BackupPage',
);
const StoragePage = screen(
  'features/backup/storage-page',
  () => import('../features/backup/storage-page'),
  'StoragePage',
);

const ProvidersPage = screen(
  'features/delivery/providers-page',
  () => import('../features/delivery/providers-page'),
  'ProvidersPage',
);
const AuditLogPage = screen(
  'features/audit/audit-log-page',
  () => import('../features/audit/audit-log-page'),
  'AuditLogPage',
);

const screens: Partial<Record<RouteKey, Preloadable<object>>> = {
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
  suppressions: SuppressionsPage,
  apiKeys: ApiKeysPage,
  backup: BackupPage,
  storage: StoragePage,
  providers: ProvidersPage,
  auditLog: AuditLogPage,
};

/** Starts loading the screen shown at `pathname`, if any (app.tsx, preloadRoute). */
export function preloadScreen(pathname: string): void {
  for (const [key, def] of Object.entries(routes) as [RouteKey, RouteDef][]) {
    const screen = screens[key];
    if (screen && def.ready && matchPath(def.path, pathname)) {
      void screen.preload().catch(() => undefined);
      return;
    }
  }
}

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
        {REDIRECTS.map(({ from, to }) => (
          <Route key={from} path={from} element={<Navigate to={to} replace />} />
        ))}
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
