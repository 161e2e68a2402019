import { describe, expect, it } from 'vitest';
import { ui, type DeliveryProgress } from '@herald/contract';
import { dispatchLabel, progressPercent } from './delivery-progress';

const d = (p: Partial<DeliveryProgress>): DeliveryProgress => ({
  dispatchState: 'running',
  simulated: true,
  total: 200,
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  refunded: 0,
  resumeAt: null,
  quietHold: false,
  ...p,
});

describe('progressPercent', () => {
  it('counts sent and failed recipients against the total', () => {
    expect(progressPercent(d({ sent: 50, failed: 50 }))).toBe(50);
    expect(progressPercent(d({ sent: 199, failed: 1 }))).toBe(100);
    expect(progressPercent(d({}))).toBe(0);
  });
  it('stays within 0-100 for an empty campaign', () => {
    expect(progressPercent(d({ total: 0 }))).toBe(0);
  });
});

describe('dispatchLabel', () => {
  it('says a campaign held by quiet hours waits for them, not for the daily limit', () => {
    expect(dispatchLabel(d({ dispatchState: 'waiting', quietHold: true }))).toBe(
      'Waiting for quiet hours to end',
    );
    expect(dispatchLabel(d({ dispatchState: 'waiting' }))).toBe(ui.delivery.dispatchLabels.waiting);
    expect(dispatchLabel(d({ dispatchState: null }))).toBeNull();
  });
});
