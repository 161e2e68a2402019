import type { Role } from '@herald/contract';

/**
 * The route table and the menus: one source for the router, the guard
 * and the side menu. A route with `ready: false` keeps its menu entry but shows the
 * unavailable page instead of a screen.
 */
export interface RouteDef {
  path: string;
  roles: readonly Role[];
  title: string;
  ready: boolean;
}

const ALL: readonly Role[] = ['Admin', 'Reseller', 'Sub-Reseller', 'User'];

export const routes = {
  admin: { path: '/admin', roles: ['Admin'], title: 'Dashboard', ready: true },
  resellerDashboard: {
    path: '/reseller-dashboard',
    roles: ['Reseller'],
    title: 'Dashboard',
    ready: true,
  },
  subResellerDashboard: {
    path: '/subreseller-dashboard',
    roles: ['Sub-Reseller'],
    title: 'Dashboard',
    ready: true,
  },
  userDashboard: { path: '/user-dashboard', roles: ['User'], title: 'Dashboard', ready: true },
  profile: { path: '/profile/:userId', roles: ALL, title: 'My Profile', ready: true },
  users: {
    path: '/users',
    roles: ['Admin', 'Reseller', 'Sub-Reseller'],
    title: 'User Management',
    ready: true,
  },
  campaigns: { path: '/campaigns', roles: ALL, title: 'Campaigns', ready: true },
  tickets: { path: '/tickets', roles: ALL, title: 'Support Tickets', ready: true },
  suppressions: { path: '/suppressions', roles: ALL, title: 'Suppression List', ready: true },
  apiKeys: { path: '/api-keys', roles: ALL, title: 'API & Webhooks', ready: true },
  announcementsHistory: {
    path: '/announcements-history',
    roles: ALL,
    title: 'Announcements',
    ready: true,
  },
  whitelabel: {
    path: '/whitelabel-settings',
    // The Admin's branding is the platform default (docs/product.md, Branding).
    roles: ['Admin', 'Reseller', 'Sub-Reseller'],
    title: 'Whitelabel Settings',
    ready: true,
  },
  resellerCredits: {
    path: '/reseller-credits',
    roles: ['Reseller', 'Sub-Reseller'],
    title: 'Credit Management',
    ready: true,
  },
  history: { path: '/history', roles: ALL, title: 'Transaction History', ready: true },
  analytics: {
    path: '/analytics',
    roles: ['Admin', 'Reseller'],
    title: 'Analytics',
    ready: true,
  },
  credits: { path: '/credits', roles: ['Admin'], title: 'Credit Management', ready: true },
  reports: { path: '/reports', roles: ['Admin'], title: 'Reports', ready: true },
  adminAnnouncements: {
    path: '/admin-announcements',
    roles: ['Admin'],
    title: 'Manage Announcements',
    ready: true,
  },
  backup: { path: '/backup', roles: ['Admin'], title: 'Backup & Data', ready: true },
  storage: { path: '/storage', roles: ['Admin'], title: 'Storage Management', ready: true },
  providers: { path: '/providers', roles: ['Admin'], title: 'Providers', ready: true },
  // Each role sees what it may: the Admin all, a reseller its subtree, a User its own entries.
  auditLog: { path: '/audit-log', roles: ALL, title: 'Audit Log', ready: true },
} as const satisfies Record<string, RouteDef>;

export type RouteKey = keyof typeof routes;

/**
 * Addresses of screens that another replaced, kept so bookmarks still land: Delivery Settings
 * (senders' limits) became part of Providers, so senders are edited in one place.
 */
export const REDIRECTS: readonly { from: string; to: string }[] = [
  { from: '/delivery-settings', to: routes.providers.path },
];

export const profilePath = (userId: string) => `/profile/${encodeURIComponent(userId)}`;

/** Where / sends each role. */
export const HOME_BY_ROLE: Record<Role, string> = {
  Admin: routes.admin.path,
  Reseller: routes.resellerDashboard.path,
  'Sub-Reseller': routes.subResellerDashboard.path,
  User: routes.userDashboard.path,
};

export interface MenuItem {
  key: RouteKey;
  label: string;
}

/** Each role's menu, in the product's order, with its labels. */
export const MENUS: Record<Role, MenuItem[]> = {
  Admin: [
    { key: 'admin', label: 'Dashboard' },
    { key: 'profile', label: 'My Profile' },
    { key: 'users', label: 'User Management' },
    { key: 'campaigns', label: 'Campaigns' },
    { key: 'suppressions', label: 'Suppression List' },
    { key: 'credits', label: 'Credit Management' },
    { key: 'reports', label: 'Reports' },
    { key: 'history', label: 'Transaction History' },
    { key: 'analytics', label: 'Analytics' },
    { key: 'tickets', label: 'Support Tickets' },
    { key: 'adminAnnouncements', label: 'Manage Announcements' },
    { key: 'announcementsHistory', label: 'View Announcements' },
    { key: 'backup', label: 'Backup & Data' },
    { key: 'storage', label: 'Storage Management' },
    { key: 'providers', label: 'Providers' },
    { key: 'whitelabel', label: 'Whitelabel Settings' },
    { key: 'apiKeys', label: 'API & Webhooks' },
    { key: 'auditLog', label: 'Audit Log' },
  ],
  Reseller: [
    { key: 'resellerDashboard', label: 'Dashboard' },
    { key: 'profile', label: 'My Profile' },
    { key: 'users', label: 'My Users' },
    { key: 'resellerCredits', label: 'Credit Management' },
    { key: 'campaigns', label: 'Campaigns' },
    { key: 'suppressions', label: 'Suppression List' },
    { key: 'history', label: 'Transaction History' },
    { key: 'analytics', label: 'Analytics' },
    { key: 'tickets', label: 'Support Tickets' },
    { key: 'announcementsHistory', label: 'Announcements' },
    { key: 'whitelabel', label: 'Whitelabel Settings' },
    { key: 'apiKeys', label: 'API & Webhooks' },
    { key: 'auditLog', label: 'Audit Log' },
  ],
  'Sub-Reseller': [
    { key: 'subResellerDashboard', label: 'Dashboard' },
    { key: 'profile', label: 'My Profile' },
    { key: 'users', label: 'User Management' },
    { key: 'resellerCredits', label: 'Credit Management' },
    { key: 'campaigns', label: 'Campaigns' },
    { key: 'suppressions', label: 'Suppression List' },
    { key: 'history', label: 'Transaction History' },
    { key: 'tickets', label: 'Support Tickets' },
    { key: 'announcementsHistory', label: 'Announcements' },
    { key: 'whitelabel', label: 'Whitelabel Settings' },
    { key: 'apiKeys', label: 'API & Webhooks' },
    { key: 'auditLog', label: 'Audit Log' },
  ],
  User: [
    { key: 'userDashboard', label: 'Dashboard' },
    { key: 'profile', label: 'My Profile' },
    { key: 'campaigns', label: 'My Campaigns' },
    { key: 'suppressions', label: 'Suppression List' },
    { key: 'history', label: 'Transaction History' },
    { key: 'tickets', label: 'Support Tickets' },
    { key: 'announcementsHistory', label: 'Announcements' },
    { key: 'apiKeys', label: 'API & Webhooks' },
    { key: 'auditLog', label: 'Audit Log' },
  ],
};

/** The href of a menu item for a user (the profile link carries the user's id). */
export function menuHref(key: RouteKey, userId: string): string {
  return key === 'profile' ? profilePath(userId) : routes[key].path;
}
