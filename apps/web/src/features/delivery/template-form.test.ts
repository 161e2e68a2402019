import { describe, expect, it } from 'vitest';
import { server as msg, TEMPLATE_LIMITS } from '@herald/contract';
import { parseTemplate } from './template-form';

describe('the template form', () => {
  it('sends a trimmed template the server takes', () => {
    const parsed = parseTemplate({
      name: ' order_update ',
      language: 'en_US',
      body: ' Hi {{1}}, order {{2}} ships. ',
    });
    expect(parsed).toEqual({
      body: { name: 'order_update', language: 'en_US', body: 'Hi {{1}}, order {{2}} ships.' },
      errors: null,
    });
  });

  it('refuses with the server’s messages, one per field', () => {
    expect(parseTemplate({ name: 'Order Update', language: 'english', body: '' }).errors).toEqual({
      name: msg.templateNameInvalid,
      language: msg.templateLanguageInvalid,
      body: msg.templateBodyInvalid(TEMPLATE_LIMITS.bodyMax),
    });
  });

  it('refuses variables that skip a number', () => {
    const parsed = parseTemplate({ name: 'gap', language: 'en', body: 'Hi {{1}} and {{3}}' });
    expect(parsed.errors).toEqual({ body: msg.templateVariablesNumbering });
  });
});
