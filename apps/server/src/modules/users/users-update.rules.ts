import {
  BRANDED_ROLES,
  canCreateRole,
  citiesOf,
  server as msg,
  type Role,
  type UpdateUserInput,
} from '@herald/contract';
import type { UserUpdate } from '../../db/schema.js';
import { badRequest, forbidden } from '../../lib/app-error.js';
import type { Actor } from '../../policies/scope.js';
import type { LockedUser } from './users.repo.js';
import { logoUrl } from '../branding/index.js';

/** What an Edit User request will write, decided from the locked target row. */
export interface UpdatePlan {
  set: UserUpdate;
  nextRole: Role;
  roleChanges: boolean;
  /** An active Admin stops being one (blocked or demoted): the last one must stay. */
  removesActiveAdmin: boolean;
  emailChanges: boolean;
  /** A block ends every token for good: unblocking later must not revive them. */
  endsTokens: boolean;
  /** Role, status, name or email changed: the auth cache must drop the user. */
  identityChanges: boolean;
  /** The stored logo URL that is replaced or removed; its file is deleted after commit. */
  oldLogo: string | null;
}

/** Optional contact/address fields: a field sent (even empty) is set, one left out is kept. */
const PROFILE_FIELDS = [
  ['firmName', 'firm_name'],
  ['mobile', 'mobile'],
  ['contactPerson', 'contact_person'],
  ['contactPersonPhone', 'contact_person_phone'],
  ['address', 'address'],
  ['state', 'state'],
  ['city', 'city'],
  ['pincode', 'pincode'],
] as const;

/**
 * The editing rules (docs/product.md, Roles and scope), checked field by field:
 * - nobody changes their own status or role;
 * - only an Admin changes role, own number and whitelabel fields; a Reseller or Sub-Reseller may
 *   send them unchanged (the form sends every field), but a different value is refused, not dropped;
 * - company name and logo belong to Resellers and Sub-Resellers only: setting them on another
 *   role is refused, and a user moved to another role loses them (an Admin keeps its own, the
 *   house branding set on Whitelabel Settings).
 * Checks that need other rows (creator, children, other Admins, email) are the service's.
 */
export function planUpdate(
  actor: Actor,
  target: LockedUser,
  input: UpdateUserInput,
  sent: (field: string) => boolean,
  newLogoName: string | null,
): UpdatePlan {
  const self = actor.id === target.id;
  const isAdmin = actor.role === 'Admin';
  const nextRole = input.role ?? target.role;
  const nextStatus = input.status ?? target.status;
  const roleChanges = nextRole !== target.role;
  const statusChanges = nextStatus !== target.status;
  if (self && (roleChanges || statusChanges)) throw forbidden(msg.cannotChangeSelf);

  const ownNumber = sent('ownNumber') ? (input.ownNumber ?? null) : target.own_number;
  const companyName = sent('companyName') ? (input.companyName ?? null) : target.company_name;
  const removeLogo = input.removeLogo === 'true' && target.company_logo !== null;
  if (!isAdmin) {
    if (roleChanges) throw forbidden(msg.fieldNotAllowed('role'));
    if (ownNumber !== target.own_number) throw forbidden(msg.fieldNotAllowed('own number'));
    if (companyName !== target.company_name) throw forbidden(msg.fieldNotAllowed('company name'));
    if (newLogoName || removeLogo) throw forbidden(msg.fieldNotAllowed('company logo'));
  }
  if (roleChanges && !canCreateRole(actor.role, nextRole)) throw forbidden(msg.roleNotAllowed);

  const branded = BRANDED_ROLES.includes(nextRole);
  // An Admin's own branding (Whitelabel Settings) is the house branding: Edit User keeps it as it
  // stands (the form may send the stored name back) and cannot set it.
  const keepsHouse = nextRole === 'Admin';
  const newName = sent('companyName') && input.companyName !== undefined;
  if (
    !branded &&
    (newLogoName || (newName && (!keepsHouse || input.companyName !== target.company_name)))
  ) {
    throw badRequest(msg.whitelabelOnlyBranded);
  }

  const set: UserUpdate = {
    name: input.name,
    email: input.email,
    role: nextRole,
    status: nextStatus,
    own_number: ownNumber,
    company_name: branded ? companyName : keepsHouse ? target.company_name : null,
  };
  for (const [field, column] of PROFILE_FIELDS) {
    if (sent(field)) set[column] = input[field] ?? null;
  }
  const state = set.state !== undefined ? set.state : target.state;
  const city = set.city !== undefined ? set.city : target.city;
  if (city && !(state && citiesOf(state).includes(city))) throw badRequest(msg.cityNotInState);

  let oldLogo: string | null = null;
  if (newLogoName) {
    set.company_logo = logoUrl(newLogoName);
    oldLogo = target.company_logo;
  } else if (removeLogo || (!branded && !keepsHouse && target.company_logo)) {
    set.company_logo = null;
    oldLogo = target.company_logo;
  }
  const emailChanges = input.email !== target.email;
  return {
    set,
    nextRole,
    roleChanges,
    removesActiveAdmin:
      target.role === 'Admin' &&
      target.status === 'Active' &&
      (nextRole !== 'Admin' || nextStatus !== 'Active'),
    emailChanges,
    endsTokens: statusChanges && nextStatus === 'Blocked',
    identityChanges: roleChanges || statusChanges || emailChanges || input.name !== target.name,
    oldLogo,
  };
}
