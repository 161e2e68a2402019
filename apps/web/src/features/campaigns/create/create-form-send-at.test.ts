import { describe, expect, it } from 'vitest';
import { scheduleMessages, SEND_AT_MAX_DAYS } from '@herald/contract';
import { isoToLocalInput } from '../../../lib/send-at';
import { checkCampaignForm, EMPTY_VALUES } from './create-form-logic';
import { copiedValues } from './campaign-copy';

/** The form's "Send at": the contract's rule on the browser's clock, sent in UTC. */

const filled = { ...EMPTY_VALUES, message: 'Hello' };
const local = (msFromNow: number) => isoToLocalInput(new Date(Date.now() + msFromNow));

describe('checkCampaignForm with Send at', () => {
  it('sends a time ahead as the UTC instant of the local time typed', () => {
    const typed = local(2 * 60 * 60_000);
    const checked = checkCampaignForm({ ...filled, sendAt: typed }, 1);
    expect(checked).toEqual({
      ok: true,
      fields: {
        creditType: filled.creditType,
        message: 'Hello',
        sendAt: new Date(typed).toISOString(),
      },
    });
  });

  it('refuses a past time and one too far ahead with the server’s words', () => {
    expect(checkCampaignForm({ ...filled, sendAt: local(-10 * 60_000) }, 1)).toEqual({
      ok: false,
      errors: { sendAt: scheduleMessages.sendAtPast },
    });
    const far = local((SEND_AT_MAX_DAYS + 2) * 24 * 60 * 60_000);
    expect(checkCampaignForm({ ...filled, sendAt: far }, 1)).toEqual({
      ok: false,
      errors: { sendAt: scheduleMessages.sendAtTooFar },
    });
  });
});

describe('a copy of a scheduled campaign', () => {
  it('starts with no time: the old one may be past', () => {
    const campaign = {
      _id: 'c1',
      name: 'Launch',
      userEmail: 'me@x.test',
      userName: 'Me',
      createdBy: 'me@x.test',
      creditType: filled.creditType,
      message: 'Hello',
      countryName: null,
      countryCode: null,
      ctaCall: null,
      ctaCallText: null,
      ctaURL: null,
      ctaURLText: null,
      status: 'Completed',
      recipientCount: 1,
      reportCount: 0,
      reportDelivered: 0,
      createdAt: new Date().toISOString(),
      delivery: null,
      rejectionReason: null,
      template: null,
      test: false,
      sendAt: '2026-01-01T10:00:00.000Z',
    } as const;
    expect(copiedValues(campaign, 'all', 'me@x.test').sendAt).toBe('');
  });
});
