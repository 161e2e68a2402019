import { describe, expect, it } from 'vitest';
import type { SessionUser, User } from '@herald/contract';
import { EMPTY_CAMPAIGN_FILTERS } from '../../api/campaigns/get-campaigns';
import {
  campaignFiltersProblem,
  campaignUserOptions,
  canLoadMoreRecipients,
  RECIPIENTS_SHOWN_MAX,
  recipientsCaption,
  recipientsEndText,
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

describe('recipients in the details dialog', () => {
  it('loads more only while more exist and the cap is not reached', () => {
    expect(canLoadMoreRecipients(100, true)).toBe(true);
    expect(canLoadMoreRecipients(100, false)).toBe(false);
    expect(canLoadMoreRecipients(RECIPIENTS_SHOWN_MAX - 1, true)).toBe(true);
    expect(canLoadMoreRecipients(RECIPIENTS_SHOWN_MAX, true)).toBe(false);
  });

  it('counts what is listed of what there is, and points to the zip past the cap', () => {
    expect(recipientsCaption(13, 13)).toBe('13 recipients');
    expect(recipientsCaption(100, 2500)).toBe('Showing the first 100 of 2,500 recipients.');
    expect(recipientsEndText(13, 13)).toBe('End of recipients');
    expect(recipientsEndText(RECIPIENTS_SHOWN_MAX, 1_000_000)).toBe(
      'The Download zip has all 1,000,000 recipients.',
    );
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
