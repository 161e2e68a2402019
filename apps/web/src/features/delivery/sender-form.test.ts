import { describe, expect, it } from 'vitest';
import { DELIVERY_LIMITS, PROVIDER_LIMITS, server as msg, type Sender } from '@herald/contract';
import {
  emptySenderValues,
  parseNewSender,
  parseSenderEdit,
  senderFormValues,
  type SenderFormValues,
} from './sender-form';

const PROVIDER = '3f0c8d0e-6b1a-4c8e-9f2a-1b2c3d4e5f60';
const values = (patch: Partial<SenderFormValues>): SenderFormValues => ({
  ...emptySenderValues,
  name: 'Main number',
  address: '106540352242922',
  ratePerSecond: '80',
  ...patch,
});

describe('parseSenderEdit', () => {
  it('reads whole numbers and an empty daily limit as unlimited', () => {
    expect(parseSenderEdit(values({ ratePerSecond: ' 250 ' }), 'whatsapp_cloud')).toEqual({
      body: {
        name: 'Main number',
        address: '106540352242922',
        ratePerSecond: 250,
        dailyLimit: null,
      },
      errors: null,
    });
    expect(
      parseSenderEdit(values({ ratePerSecond: '5', dailyLimit: '1000' }), 'jasmin').body,
    ).toMatchObject({ ratePerSecond: 5, dailyLimit: 1000 });
  });
  it("refuses what the server refuses, with the contract's messages", () => {
    const rate = msg.senderRateInvalid(DELIVERY_LIMITS.senderRateMax);
    const daily = msg.senderDailyLimitInvalid(DELIVERY_LIMITS.senderDailyLimitMax);
    for (const ratePerSecond of ['', '0', '1.5', 'abc', '100001']) {
      expect(parseSenderEdit(values({ ratePerSecond }), 'twilio').errors).toEqual({
        ratePerSecond: rate,
      });
    }
    expect(parseSenderEdit(values({ dailyLimit: '0' }), 'twilio').errors).toEqual({
      dailyLimit: daily,
    });
    expect(parseSenderEdit(values({ name: ' ' }), 'twilio').errors).toEqual({
      name: msg.senderNameInvalid(PROVIDER_LIMITS.nameMax),
    });
    expect(
      parseSenderEdit(values({ address: 'x'.repeat(PROVIDER_LIMITS.addressMax + 1) }), 'jasmin')
        .errors,
    ).toEqual({ address: msg.senderAddressInvalid(PROVIDER_LIMITS.addressMax) });
  });
  it("asks every provider but the simulator for the sender's address, by its kind's label", () => {
    expect(parseSenderEdit(values({ address: ' ' }), 'whatsapp_cloud').errors).toEqual({
      address: msg.senderAddressRequired('Phone number ID'),
    });
    expect(parseSenderEdit(values({ address: '' }), 'twilio').errors).toEqual({
      address: msg.senderAddressRequired('From number'),
    });
    expect(parseSenderEdit(values({ address: '' }), 'simulator').errors).toBeNull();
  });
});

describe('parseNewSender', () => {
  it('needs the provider and sends its id with the rest', () => {
    expect(parseNewSender(values({}), null).errors).toEqual({ providerId: msg.providerNotFound });
    expect(parseNewSender(values({ providerId: PROVIDER }), 'whatsapp_cloud')).toEqual({
      body: {
        providerId: PROVIDER,
        name: 'Main number',
        address: '106540352242922',
        ratePerSecond: 80,
        dailyLimit: null,
      },
      errors: null,
    });
  });
  it('shows every field error at once, the address rule too', () => {
    expect(
      parseNewSender(
        values({ providerId: PROVIDER, name: '', address: '', ratePerSecond: '' }),
        'jasmin',
      ).errors,
    ).toEqual({
      name: msg.senderNameInvalid(PROVIDER_LIMITS.nameMax),
      address: msg.senderAddressRequired('Sender ID or number'),
      ratePerSecond: msg.senderRateInvalid(DELIVERY_LIMITS.senderRateMax),
    });
  });
});

describe('senderFormValues', () => {
  it('fills the form from a sender', () => {
    const s: Sender = {
      id: 'x',
      name: 'S',
      provider: 'Simulator',
      providerId: PROVIDER,
      providerKind: 'simulator',
      address: '',
      isDefault: true,
      sentToday: 0,
      ratePerSecond: 80,
      dailyLimit: null,
    };
    expect(senderFormValues(s)).toEqual({
      providerId: PROVIDER,
      name: 'S',
      address: '',
      ratePerSecond: '80',
      dailyLimit: '',
    });
  });
});
