import { describe, expect, it } from 'vitest';
import { PROVIDER_LIMITS, server as msg, ui, type Provider, type Sender } from '@herald/contract';
import { parseTestMessage, sendersOf, testMessageValues } from './test-message-form';

const SENDER = '44444444-4444-4444-8444-444444444444';

describe('test message form', () => {
  it("offers the provider's own senders, the first chosen", () => {
    const mine = { id: SENDER, providerId: 'p1' } as Sender;
    const other = { id: 'x', providerId: 'p2' } as Sender;
    expect(sendersOf({ id: 'p1' } as Provider, [other, mine])).toEqual([mine]);
    expect(testMessageValues([mine])).toEqual({
      senderId: SENDER,
      to: '',
      message: ui.providers.testDefaultMessage,
    });
    expect(testMessageValues([]).senderId).toBe('');
  });
  it("checks the number and message as the server does, with the contract's messages", () => {
    expect(parseTestMessage({ senderId: SENDER, to: ' 919812345678 ', message: ' Hi ' })).toEqual({
      body: { senderId: SENDER, to: '919812345678', message: 'Hi' },
      errors: null,
    });
    expect(parseTestMessage({ senderId: '', to: '+91 98', message: '' }).errors).toEqual({
      senderId: msg.senderNotFound,
      to: msg.providerTestNumberInvalid,
      message: msg.providerTestMessageInvalid(PROVIDER_LIMITS.testMessageMax),
    });
  });
});
