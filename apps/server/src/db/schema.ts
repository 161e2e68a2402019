import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Role, UserStatus } from '@herald/contract';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  role: Role;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  password_hash: string;
  token_version: Generated<number>;
  created_by: string | null;
  ancestors: ColumnType<string[], string[] | undefined, string[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
  own_number: string | null;
  company_name: string | null;
  company_logo: string | null;
  contact_person: string | null;
  contact_person_phone: string | null;
  mobile: string | null;
  firm_name: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  pincode: string | null;
}
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

export interface PasswordResetsTable {
  id: Generated<string>;
  user_id: string;
  otp_hash: string;
  expires_at: Timestamp;
  attempts: Generated<number>;
  used_at: Date | null;
  created_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  window_start: Timestamp;
}

export interface Database {
  users: UsersTable;
  password_resets: PasswordResetsTable;
  rate_limits: RateLimitsTable;
}
