import { describe, expect, it } from 'vitest';
import { campaignResults } from './campaign-results.js';
import type { DeliveryProgress } from './delivery.js';

const progress = (p: Partial<DeliveryProgress>): DeliveryProgress => ({
  dispatchState: 'running',
  simulated: true,
  total: 30,
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  refunded: 0,
  resumeAt: null,
  quietHold: false,
  ...p,
});

describe('campaignResults', () => {
  it('is nothing for a campaign neither sent nor reported', () => {
    expect(campaignResults({ reportCount: 0, reportDelivered: 0, delivery: null })).toBeNull();
  });

  it('reads the engine while sending: delivered includes read, the rest is pending', () => {
    const delivery = progress({ sent: 25, delivered: 20, read: 12, failed: 1 });
    expect(campaignResults({ reportCount: 0, reportDelivered: 0, delivery })).toEqual({
      total: 30,
      delivered: 20,
      read: 12,
      failed: 1,
      pending: 9,
      final: false,
    });
  });

  it('takes the report once there is one: failed is everything not delivered', () => {
    const delivery = progress({ dispatchState: 'done', sent: 29, delivered: 27, read: 17 });
    expect(campaignResults({ reportCount: 30, reportDelivered: 27, delivery })).toEqual({
      total: 30,
      delivered: 27,
      read: 17,
      failed: 3,
      pending: 0,
      final: true,
    });
    expect(campaignResults({ reportCount: 4, reportDelivered: 3, delivery: null })).toMatchObject({
      read: null,
      failed: 1,
    });
  });
});
