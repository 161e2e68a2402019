import { describe, expect, it } from 'vitest';
import { isCreatorVisible } from './users.presenter.js';
import type { UserWithCreator } from './users.repo.js';

const A = 'a0000000-0000-4000-8000-000000000000'; // Admin
const R = 'b0000000-0000-4000-8000-000000000000'; // Reseller, made by A
const S = 'c0000000-0000-4000-8000-000000000000'; // Sub-Reseller, made by R
const U = 'd0000000-0000-4000-8000-000000000000'; // User, made by S

const row = (id: string, ancestors: string[], createdBy: string | null) =>
  ({ id, ancestors, created_by: createdBy }) as UserWithCreator;
const u = row(U, [A, R, S], S);

describe('isCreatorVisible', () => {
  it('shows the creator to itself, to those above it and to an Admin', () => {
    expect(isCreatorVisible({ id: S, role: 'Sub-Reseller' }, u)).toBe(true);
    expect(isCreatorVisible({ id: R, role: 'Reseller' }, u)).toBe(true);
    expect(isCreatorVisible({ id: 'x', role: 'Admin' }, u)).toBe(true);
  });

  it('hides it from the user itself and from anyone whose scope lacks it', () => {
    expect(isCreatorVisible({ id: U, role: 'User' }, u)).toBe(false);
    expect(isCreatorVisible({ id: S, role: 'Sub-Reseller' }, row(S, [A, R], R))).toBe(false);
    expect(isCreatorVisible({ id: R, role: 'Reseller' }, row(R, [A], A))).toBe(false);
  });

  it('names nobody to a non-Admin when the row’s chain does not end at its creator', () => {
    expect(isCreatorVisible({ id: R, role: 'Reseller' }, row(U, [A, R, S], R))).toBe(false);
    expect(isCreatorVisible({ id: 'x', role: 'Admin' }, row(U, [A, R, S], R))).toBe(true);
  });
});
