import { describe, expect, it } from 'vitest';
import { canAdvanceDelivery, DELIVERY_STATES } from './delivery.js';

describe('canAdvanceDelivery', () => {
  it('moves forward only, and fails only before delivered', () => {
    expect(canAdvanceDelivery(null, 'sending')).toBe(true);
    expect(canAdvanceDelivery('sending', 'sent')).toBe(true);
    expect(canAdvanceDelivery('sent', 'read')).toBe(true);
    expect(canAdvanceDelivery('read', 'delivered')).toBe(false);
    expect(canAdvanceDelivery('delivered', 'sent')).toBe(false);
    expect(canAdvanceDelivery('sent', 'failed')).toBe(true);
    expect(canAdvanceDelivery('delivered', 'failed')).toBe(false);
    expect(canAdvanceDelivery('failed', 'delivered')).toBe(false);
    for (const s of DELIVERY_STATES) expect(canAdvanceDelivery(s, s)).toBe(false);
  });

  it('opts out only a number not sent yet, and nothing moves an opted-out one', () => {
    expect(canAdvanceDelivery(null, 'opted_out')).toBe(true);
    expect(canAdvanceDelivery('sending', 'opted_out')).toBe(true);
    expect(canAdvanceDelivery('sent', 'opted_out')).toBe(false);
    for (const s of DELIVERY_STATES) expect(canAdvanceDelivery('opted_out', s)).toBe(false);
  });
});
