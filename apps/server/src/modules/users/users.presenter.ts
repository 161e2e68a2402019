import type { User } from '@herald/contract';
import { canSee, type Actor } from '../../policies/scope.js';
import type { UserWithCreator } from './users.repo.js';

/**
 * Whether the viewer may learn who created this user: only when the creator is in the viewer's
 * scope (Admin: always). A user's creator is the last of its ancestors and holds the ones
 * before it; a row where that does not hold names nobody.
 */
export function isCreatorVisible(viewer: Actor, row: UserWithCreator): boolean {
  const creatorId = row.created_by;
  if (creatorId === null || row.ancestors.at(-1) !== creatorId) return viewer.role === 'Admin';
  return canSee(viewer, { id: creatorId, ancestors: row.ancestors.slice(0, -1) });
}

/**
 * Row → wire, as `viewer` may see it: lists every field that leaves the server; `_id` repeats
 * `id`, as every record of the API carries it (the contract's UserSchema). A creator outside the
 * viewer's scope reads as none (docs/product.md, Roles and scope).
 */
export function presentUser(row: UserWithCreator, viewer: Actor): User {
  const showCreator = isCreatorVisible(viewer, row);
  return {
    id: row.id,
    _id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    status: row.status,
    createdBy: showCreator ? row.creator_email : null,
    createdByName: showCreator ? row.creator_name : null,
    createdAt: row.created_at.toISOString(),
    ownNumber: row.own_number,
    companyName: row.company_name,
    companyLogo: row.company_logo,
    contactPerson: row.contact_person,
    contactPersonPhone: row.contact_person_phone,
    mobile: row.mobile,
    firmName: row.firm_name,
    address: row.address,
    city: row.city,
    state: row.state,
    pincode: row.pincode,
    twoFactorEnabled: row.two_factor_enabled_at !== null,
  };
}
