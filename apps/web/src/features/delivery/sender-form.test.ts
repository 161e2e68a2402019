import { describe, expect, it } from 'vitest';
import { DELIVERY_LIMITS, server as msg } from '@herald/contract';
import { parseSenderForm, senderFormValues } from './sender-form';

describe('parseSenderForm', () => {
  it('reads whole numbers and an empty daily limit as unlimited', () => {
    expect(parseSenderForm({ ratePerSecond: ' 250 ', dailyLimit: '' })).toEqual({
      body: { ratePerSecond: 250, dailyLimit: null },
      errors: null,
    });
    expect(parseSenderForm({ ratePerSecond: '5', dailyLimit: '1000' }).body).toEqual({
      ratePerSecond: 5,
      dailyLimit: 1000,
    });
  });
  it("refuses what the server refuses, with the contract's messages", () => {
    const rate = msg.senderRateInvalid(DELIVERY_LIMITS.senderRateMax);
    const daily = msg.senderDailyLimitInvalid(DELIVERY_LIMITS.senderDailyLimitMax);
    for (const ratePerSecond of ['', '0', '1.5', 'abc', '100001']) {
      expect(parseSenderForm({ ratePerSecond, dailyLimit: '' }).errors).toEqual({
        ratePerSecond: rate,
      });
    }
    expect(parseSenderForm({ ratePerSecond: '10', dailyLimit: '0' }).errors).toEqual({
      dailyLimit: daily,
    });
  });
  it('fills the form from a sender', () => {
    const s = {
      id: 'x',
      name: 'S',
      provider: 'Simulator',
      providerId: 'p',
      providerKind: 'simulator' as const,
      address: '',
      isDefault: true,
      sentToday: 0,
    };
    expect(senderFormValues({ ...s, ratePerSecond: 80, dailyLimit: null })).toEqual({
      ratePerSecond: '80',
      dailyLimit: '',
    });
  });
});
