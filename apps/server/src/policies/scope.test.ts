import { describe, expect, it } from 'vitest';
import { canSee, isBelow, type Actor, type ScopedUser } from './scope.js';

// Admin; R1 → S1 → U1; R1 → U2; R2 → U3 (ancestors list the creators, nearest last).
const admin = { id: 'admin', role: 'Admin', ancestors: [] } as const;
const r1 = { id: 'r1', role: 'Reseller', ancestors: ['admin'] } as const;
const s1 = { id: 's1', role: 'Sub-Reseller', ancestors: ['admin', 'r1'] } as const;
const u1 = { id: 'u1', role: 'User', ancestors: ['admin', 'r1', 's1'] } as const;
const u2 = { id: 'u2', role: 'User', ancestors: ['admin', 'r1'] } as const;
const r2 = { id: 'r2', role: 'Reseller', ancestors: ['admin'] } as const;
const u3 = { id: 'u3', role: 'User', ancestors: ['admin', 'r2'] } as const;
const everyone: (Actor & ScopedUser)[] = [admin, r1, s1, u1, u2, r2, u3];

function visibleTo(actor: Actor, rule: (a: Actor, u: ScopedUser) => boolean): string[] {
  return everyone.filter((u) => rule(actor, u)).map((u) => u.id);
}

describe('canSee', () => {
  it('lets an Admin see everyone, itself included', () => {
    expect(visibleTo(admin, canSee)).toEqual(['admin', 'r1', 's1', 'u1', 'u2', 'r2', 'u3']);
  });

  it('lets a Reseller see itself and its whole subtree, not a sibling tree or the Admin', () => {
    expect(visibleTo(r1, canSee)).toEqual(['r1', 's1', 'u1', 'u2']);
    expect(visibleTo(r2, canSee)).toEqual(['r2', 'u3']);
  });

  it('lets a Sub-Reseller see itself and its users, not its creator', () => {
    expect(visibleTo(s1, canSee)).toEqual(['s1', 'u1']);
  });

  it('lets a User see itself only', () => {
    expect(visibleTo(u1, canSee)).toEqual(['u1']);
    expect(visibleTo(u3, canSee)).toEqual(['u3']);
  });
});

describe('isBelow', () => {
  it('is everyone but itself for an Admin', () => {
    expect(visibleTo(admin, isBelow)).toEqual(['r1', 's1', 'u1', 'u2', 'r2', 'u3']);
  });

  it('is the strict subtree for a Reseller or Sub-Reseller', () => {
    expect(visibleTo(r1, isBelow)).toEqual(['s1', 'u1', 'u2']);
    expect(visibleTo(s1, isBelow)).toEqual(['u1']);
    expect(visibleTo(r2, isBelow)).toEqual(['u3']);
  });

  it('is nobody for a User', () => {
    expect(visibleTo(u1, isBelow)).toEqual([]);
  });

  it('never puts a creator below its own user', () => {
    expect(isBelow(u1, s1)).toBe(false);
    expect(isBelow(s1, r1)).toBe(false);
  });
});
