/** The four roles, top of the hierarchy first. */
export const ROLES = ['Admin', 'Reseller', 'Sub-Reseller', 'User'] as const;
export type Role = (typeof ROLES)[number];

export const USER_STATUSES = ['Active', 'Blocked'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Which roles each role may create (docs/product.md, Roles and scope). */
export const CREATABLE_ROLES: Record<Role, readonly Role[]> = {
  Admin: ['Reseller', 'Sub-Reseller', 'User'],
  Reseller: ['Sub-Reseller', 'User'],
  'Sub-Reseller': ['User'],
  User: [],
};

/** Roles that own a subtree of users and manage them. */
export const MANAGER_ROLES: readonly Role[] = ['Admin', 'Reseller', 'Sub-Reseller'];

export function canCreateRole(creator: Role, role: Role): boolean {
  return CREATABLE_ROLES[creator].includes(role);
}

export function isManager(role: Role): boolean {
  return MANAGER_ROLES.includes(role);
}

/** Roles that carry whitelabel branding (company name and logo). */
export const BRANDED_ROLES: readonly Role[] = ['Reseller', 'Sub-Reseller'];

/** Badge variants (Bootstrap) for a user's status. */
export function userStatusVariant(status: UserStatus): 'success' | 'danger' {
  return status === 'Active' ? 'success' : 'danger';
}
