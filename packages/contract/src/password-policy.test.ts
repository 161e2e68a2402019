import { describe, expect, it } from 'vitest';
import {
  commonPasswordsLoaded,
  isCommonPassword,
  loadCommonPasswords,
  PASSWORD_TOO_COMMON,
} from './password-policy.js';
import { PasswordSchema } from './schemas/common.js';
import { ChangePasswordBodySchema } from './schemas/auth.js';

describe('common-password rule', () => {
  it('checks nothing until the list is loaded (it is never loaded by importing the contract)', () => {
    expect(commonPasswordsLoaded()).toBe(false);
    expect(isCommonPassword('password123')).toBe(false);
    expect(PasswordSchema.safeParse('password123').success).toBe(true);
  });

  it('refuses listed passwords case-insensitively once loaded, with the contract message', async () => {
    const list = await loadCommonPasswords();
    expect(list.size).toBeGreaterThan(40_000);
    expect(commonPasswordsLoaded()).toBe(true);
    for (const pw of ['password123', 'Password123', 'QWERTY123', 'iloveyou1']) {
      const parsed = PasswordSchema.safeParse(pw);
      expect(parsed.success, pw).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(PASSWORD_TOO_COMMON);
    }
    const body = ChangePasswordBodySchema.safeParse({
      currentPassword: 'x',
      newPassword: 'letmein1',
      confirmPassword: 'letmein1',
    });
    expect(body.error?.issues.map((i) => i.message)).toEqual([PASSWORD_TOO_COMMON]);
  });

  it('keeps the length rules and lets an uncommon password through', async () => {
    await loadCommonPasswords();
    expect(PasswordSchema.safeParse('violet-anchor-meadow-42').success).toBe(true);
    expect(PasswordSchema.safeParse('short').error?.issues[0]?.message).toBe(
      'Password must be at least 8 characters.',
    );
  });

  it('loads once: later calls share the same list', async () => {
    expect(await loadCommonPasswords()).toBe(await loadCommonPasswords());
  });
});
