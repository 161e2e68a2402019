import { describe, expect, it } from 'vitest';
import { CREDIT_TYPES, server as msg, ui, type Sender } from '@herald/contract';
import { parseRoutes, routeOptions, routeValues } from './routing-form';

const sender = (id: string, providerKind: Sender['providerKind'], isDefault = false): Sender => ({
  id,
  name: `${providerKind} sender`,
  provider: `${providerKind} provider`,
  providerId: `p-${id}`,
  providerKind,
  address: '',
  ratePerSecond: 10,
  dailyLimit: null,
  isDefault,
  sentToday: 0,
});
const SIM = '11111111-1111-4111-8111-111111111111';
const WA = '22222222-2222-4222-8222-222222222222';
const SMS = '33333333-3333-4333-8333-333333333333';
const senders = [
  sender(SIM, 'simulator', true),
  sender(WA, 'whatsapp_cloud'),
  sender(SMS, 'jasmin'),
];
const RICH = 'With DP & CTA - domestic';
const PLAIN = 'Normal Message - domestic';

describe('routing form', () => {
  it('reads every credit type, null as the default sender', () => {
    const v = routeValues([{ creditType: RICH, senderId: WA }]);
    expect(Object.keys(v)).toEqual([...CREDIT_TYPES]);
    expect(v[RICH]).toBe(WA);
    expect(v[PLAIN]).toBe('');
  });
  it('offers an SMS gateway to plain-text types only, with the reason on the others', () => {
    const plain = routeOptions(PLAIN, senders);
    expect(plain.map((o) => o.disabled)).toEqual([false, false, false, false]);
    expect(plain[0]!.label).toBe(ui.providers.defaultSender('simulator sender'));
    const rich = routeOptions(RICH, senders);
    expect(rich.find((o) => o.value === SMS)).toMatchObject({
      disabled: true,
      label: `jasmin sender · jasmin provider (${ui.providers.smsOnly})`,
    });
    expect(rich.find((o) => o.value === WA)!.disabled).toBe(false);
  });
  it('sends every type, the default as null', () => {
    const v = { ...routeValues([]), [PLAIN]: SMS, [RICH]: WA };
    const parsed = parseRoutes(v, senders);
    expect(parsed.errors).toBeNull();
    expect(parsed.body!.routes).toHaveLength(CREDIT_TYPES.length);
    expect(parsed.body!.routes).toContainEqual({ creditType: PLAIN, senderId: SMS });
    expect(parsed.body!.routes).toContainEqual({ creditType: RICH, senderId: WA });
    expect(parsed.body!.routes).toContainEqual({
      creditType: 'With DP - domestic',
      senderId: null,
    });
  });
  it("refuses a rich type on an SMS gateway with the server's message, and an unknown sender", () => {
    const v = { ...routeValues([]), [RICH]: SMS, [PLAIN]: 'gone' };
    expect(parseRoutes(v, senders).errors).toEqual({
      [RICH]: msg.routeRichToSms(RICH),
      [PLAIN]: msg.senderNotFound,
    });
  });
});
