import { describe, expect, it } from 'vitest';
import { CreateUserBodySchema, UpdateUserBodySchema, UsersQuerySchema } from './users.js';
import { USERS_PAGE_DEFAULT, USERS_PAGE_MAX, USERS_SEARCH_MAX } from '../limits.js';
import { server } from '../server-messages.js';
import { ChangePasswordBodySchema, LoginBodySchema } from './auth.js';
import { canCreateRole } from '../roles.js';

describe('CreateUserBodySchema', () => {
  it('normalises email and empty optional fields', () => {
    const r = CreateUserBodySchema.parse({
      name: '  Asha ',
      email: ' Asha@Example.COM ',
      password: '',
      role: 'User',
      mobile: '+91 98765-43210',
      city: '',
    });
    expect(r).toMatchObject({ name: 'Asha', email: 'asha@example.com', mobile: '+919876543210' });
    expect(r.password).toBeUndefined();
    expect(r.city).toBeUndefined();
  });

  it('requires name and a valid email, and a known role', () => {
    const r = CreateUserBodySchema.safeParse({ name: '', email: 'nope', role: 'Boss' });
    expect(r.success).toBe(false);
    const messages = r.error!.issues.map((i) => i.message);
    expect(messages).toContain('Name is required.');
    expect(messages).toContain('Enter a valid email address.');
    expect(messages).toContain('Choose a role.');
  });

  it('keeps the city within the chosen state', () => {
    const base = { name: 'A', email: 'a@b.co', role: 'User' as const };
    expect(
      CreateUserBodySchema.safeParse({ ...base, state: 'Karnataka', city: 'Mysuru' }).success,
    ).toBe(true);
    const bad = CreateUserBodySchema.safeParse({ ...base, state: 'Karnataka', city: 'Chennai' });
    expect(bad.error?.issues[0]?.message).toBe('Choose a city from the selected state.');
    expect(CreateUserBodySchema.safeParse({ ...base, city: 'Mysuru' }).success).toBe(false);
  });

  it('applies the password policy to a given password', () => {
    const base = { name: 'A', email: 'a@b.co', role: 'User' as const };
    expect(
      CreateUserBodySchema.safeParse({ ...base, password: 'short' }).error?.issues[0]?.message,
    ).toBe('Password must be at least 8 characters.');
  });
});

describe('UpdateUserBodySchema', () => {
  it('accepts the multipart string fields', () => {
    const r = UpdateUserBodySchema.parse({
      name: 'B',
      email: 'b@c.co',
      status: 'Blocked',
      pincode: '560001',
      removeLogo: 'false',
    });
    expect(r.status).toBe('Blocked');
  });

  it('rejects a bad pincode and status', () => {
    expect(
      UpdateUserBodySchema.safeParse({ name: 'B', email: 'b@c.co', pincode: '12' }).success,
    ).toBe(false);
    expect(
      UpdateUserBodySchema.safeParse({ name: 'B', email: 'b@c.co', status: 'Gone' }).success,
    ).toBe(false);
  });
});

describe('auth schemas', () => {
  it('requires both login fields', () => {
    expect(LoginBodySchema.safeParse({ email: 'a@b.co', password: '' }).success).toBe(false);
  });

  it('says when the new passwords differ', () => {
    const r = ChangePasswordBodySchema.safeParse({
      currentPassword: 'x',
      newPassword: 'abcdefgh',
      confirmPassword: 'abcdefgx',
    });
    expect(r.error?.issues[0]?.message).toBe('New passwords do not match.');
  });
});

describe('hierarchy', () => {
  it('lets each role create only the roles below it', () => {
    expect(canCreateRole('Admin', 'Reseller')).toBe(true);
    expect(canCreateRole('Admin', 'Admin')).toBe(false);
    expect(canCreateRole('Reseller', 'Sub-Reseller')).toBe(true);
    expect(canCreateRole('Reseller', 'Reseller')).toBe(false);
    expect(canCreateRole('Sub-Reseller', 'User')).toBe(true);
    expect(canCreateRole('Sub-Reseller', 'Sub-Reseller')).toBe(false);
    expect(canCreateRole('User', 'User')).toBe(false);
  });
});

describe('UsersQuerySchema', () => {
  it('defaults the limit, trims the search and reads the cursor', () => {
    const id = '3F2A0B1C-0000-4000-8000-000000000001';
    expect(UsersQuerySchema.parse({ search: '  ', cursor: '' })).toEqual({
      limit: USERS_PAGE_DEFAULT,
      search: undefined,
      cursor: undefined,
    });
    expect(UsersQuerySchema.parse({ search: ' Asha ', cursor: `17_${id}`, limit: '7' })).toEqual({
      search: 'Asha',
      cursor: { micros: '17', id: id.toLowerCase() },
      limit: 7,
    });
  });

  it('refuses limits out of range and malformed cursors with the contract messages', () => {
    const messageOf = (q: Record<string, string>) =>
      UsersQuerySchema.safeParse(q).error?.issues[0]?.message;
    expect(messageOf({ limit: String(USERS_PAGE_MAX + 1) })).toBe(server.pageLimit(USERS_PAGE_MAX));
    expect(messageOf({ limit: '0' })).toBe(server.pageLimit(USERS_PAGE_MAX));
    expect(messageOf({ cursor: '12345' })).toBe(server.invalidCursor);
    expect(messageOf({ search: 'x'.repeat(USERS_SEARCH_MAX + 1) })).toBe(
      server.searchTooLong(USERS_SEARCH_MAX),
    );
  });
});
