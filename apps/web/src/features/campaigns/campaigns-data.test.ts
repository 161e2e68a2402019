import { describe, expect, it } from 'vitest';
import type { SessionUser, User } from '@herald/contract';
import { EMPTY_CAMPAIGN_FILTERS } from '../../api/campaigns/get-campaigns';
import {
  campaignFiltersProblem,
  campaignUserOptions,
  recipientsPreview,
  reportStatusVariant,
} from './campaigns-data';

describe('campaignFiltersProblem', () => {
  it('accepts empty and ordered dates, refuses From after To', () => {
    expect(campaignFiltersProblem(EMPTY_CAMPAIGN_FILTERS)).toBeNull();
    expect(
      campaignFiltersProblem({ ...EMPTY_CAMPAIGN_FILTERS, from: '2026-01-01', to: '2026-01-02' }),
    ).toBeNull();
    expect(
      campaignFiltersProblem({ ...EMPTY_CAMPAIGN_FILTERS, from: '2026-02-01', to: '2026-01-02' }),
    ).toBe('From date must not be after To date.');
  });
});

describe('recipientsPreview', () => {
  it('takes the first N without splitting the whole string', () => {
    expect(recipientsPreview('')).toEqual([]);
    expect(recipientsPreview('911234567')).toEqual(['911234567']);
    expect(recipientsPreview('1111111,2222222,3333333', 2)).toEqual(['1111111', '2222222']);
    expect(recipientsPreview('1111111, ,2222222,', 5)).toEqual(['1111111', '2222222']);
  });

  it('reads only the start of a million numbers', () => {
    const to = Array.from({ length: 1_000_000 }, (_, i) => String(9_100_000_000 + i)).join(',');
    const shown = recipientsPreview(to);
    expect(shown).toHaveLength(1000);
    expect(shown[999]).toBe(String(9_100_000_999));
  });
});

describe('reportStatusVariant', () => {
  it('is green for delivered in any case, red otherwise', () => {
    expect(reportStatusVariant('Delivered')).toBe('success');
    expect(reportStatusVariant(' delivered ')).toBe('success');
    expect(reportStatusVariant('Failed')).toBe('danger');
    expect(reportStatusVariant('')).toBe('danger');
  });
});

describe('campaignUserOptions', () => {
  const me = { id: '1', email: 'me@x.io', name: 'Me', role: 'Reseller' } as SessionUser;
  const users = [{ email: 'a@x.io', name: 'A' }] as User[];
  it('lists the caller as Self first, then Name (email)', () => {
    expect(campaignUserOptions(me, users, '')).toEqual([
      { value: 'me@x.io', label: 'Me (Self)' },
      { value: 'a@x.io', label: 'A (a@x.io)' },
    ]);
  });
  it('keeps a chosen email that is not listed', () => {
    expect(campaignUserOptions(me, [], 'gone@x.io').at(-1)).toEqual({
      value: 'gone@x.io',
      label: 'gone@x.io',
    });
  });
});
