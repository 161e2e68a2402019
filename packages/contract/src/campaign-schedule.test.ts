import { describe, expect, it } from 'vitest';
import {
  isScheduledAhead,
  scheduleMessages,
  SEND_AT_MAX_DAYS,
  SEND_AT_SLACK_MS,
  SendAtSchema,
  sendAtProblem,
} from './campaign-schedule.js';
import { CreateCampaignFieldsSchema } from './schemas/campaigns.js';

const NOW = Date.UTC(2026, 11, 3, 12, 0, 0);
const DAY = 24 * 60 * 60 * 1000;

describe('sendAtProblem', () => {
  it('takes a time ahead, up to the limit, and one within the clock slack', () => {
    expect(sendAtProblem(new Date(NOW + 2 * 60_000), NOW)).toBeNull();
    expect(sendAtProblem(new Date(NOW + SEND_AT_MAX_DAYS * DAY), NOW)).toBeNull();
    expect(sendAtProblem(new Date(NOW - SEND_AT_SLACK_MS + 1), NOW)).toBeNull();
  });

  it('refuses a past time, one past the limit, and no time at all', () => {
    expect(sendAtProblem(new Date(NOW - SEND_AT_SLACK_MS - 1), NOW)).toBe(
      scheduleMessages.sendAtPast,
    );
    expect(sendAtProblem(new Date(NOW + SEND_AT_MAX_DAYS * DAY + 1), NOW)).toBe(
      scheduleMessages.sendAtTooFar,
    );
    expect(sendAtProblem(new Date('nope'), NOW)).toBe(scheduleMessages.sendAtInvalid);
  });
});

describe('SendAtSchema', () => {
  it('reads an ISO time with its offset as the instant it names', () => {
    const ahead = new Date(Date.now() + 60 * 60_000);
    const withOffset = ahead.toISOString().replace('Z', '+00:00');
    expect(SendAtSchema.parse(withOffset).getTime()).toBe(ahead.getTime());
  });

  it('answers with the contract’s messages', () => {
    const issue = (v: string) => SendAtSchema.safeParse(v).error?.issues[0]?.message;
    expect(issue('2026-12-24 18:00')).toBe(scheduleMessages.sendAtInvalid);
    expect(issue('2020-01-01T00:00:00Z')).toBe(scheduleMessages.sendAtPast);
  });

  it('is optional on the create form: an empty field means "when approved"', () => {
    const base = { creditType: 'Normal Message - domestic', message: 'Hi' };
    expect(CreateCampaignFieldsSchema.parse({ ...base, sendAt: '' }).sendAt).toBeUndefined();
    expect(CreateCampaignFieldsSchema.parse(base).sendAt).toBeUndefined();
  });
});

describe('isScheduledAhead', () => {
  it('is an Approved campaign whose time is still ahead', () => {
    const ahead = new Date(NOW + 60_000).toISOString();
    const past = new Date(NOW - 60_000).toISOString();
    expect(isScheduledAhead({ status: 'Approved', sendAt: ahead }, NOW)).toBe(true);
    expect(isScheduledAhead({ status: 'Approved', sendAt: past }, NOW)).toBe(false);
    expect(isScheduledAhead({ status: 'Approved', sendAt: null }, NOW)).toBe(false);
    expect(isScheduledAhead({ status: 'Submitted', sendAt: ahead }, NOW)).toBe(false);
  });
});
