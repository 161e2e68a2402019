import { describe, expect, it } from 'vitest';
import { commonPasswordsLoaded, PASSWORD_TOO_COMMON } from '@herald/contract';
import { validateChangePassword } from './change-password-logic';

const body = (newPassword: string) => ({
  currentPassword: 'current-pass-1',
  newPassword,
  confirmPassword: newPassword,
});

describe('validateChangePassword', () => {
  it('loads the common-password list on the first check, not before, and refuses a listed one', async () => {
    expect(commonPasswordsLoaded()).toBe(false);
    const result = await validateChangePassword(body('Password123'));
    expect(commonPasswordsLoaded()).toBe(true);
    expect(result).toEqual({ errors: { newPassword: PASSWORD_TOO_COMMON } });
  });

  it('passes an uncommon password and keeps the other rules', async () => {
    expect(await validateChangePassword(body('violet-anchor-meadow-42'))).toEqual({
      data: body('violet-anchor-meadow-42'),
    });
    const mismatch = await validateChangePassword({
      ...body('violet-anchor-meadow-42'),
      confirmPassword: 'other-pass-42',
    });
    expect(mismatch).toEqual({ errors: { confirmPassword: 'New passwords do not match.' } });
  });
});
