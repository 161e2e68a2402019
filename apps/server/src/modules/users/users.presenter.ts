import type { User } from '@herald/contract';
import type { UserWithCreator } from './users.repo.js';

/** Row → wire: lists every field that leaves the server; `_id` is kept for the spec's clients. */
export function presentUser(row: UserWithCreator): User {
  return {
    id: row.id,
    _id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    status: row.status,
    createdBy: row.creator_email,
    createdByName: row.creator_name,
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
  };
}
