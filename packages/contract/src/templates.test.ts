import { describe, expect, it } from 'vitest';
import { server as msg } from './server-messages.js';
import { fillTemplate, templateValuesProblem, templateVariableCount } from './schemas/templates.js';

describe('WhatsApp template variables', () => {
  it('counts {{1}} to {{n}}, repeated or spaced, and refuses gaps', () => {
    expect(templateVariableCount('No variables')).toBe(0);
    expect(templateVariableCount('Hi {{1}}, order {{2}}; bye {{ 1 }}')).toBe(2);
    expect(templateVariableCount('{{2}} then {{1}}')).toBe(2);
    expect(templateVariableCount('Hi {{1}} and {{3}}')).toBeNull();
    expect(templateVariableCount('Hi {{2}}')).toBeNull();
  });

  it('fills the preview, leaving a variable without its value as it is', () => {
    expect(fillTemplate('Hi {{1}}, order {{2}}', ['Asha'])).toBe('Hi Asha, order {{2}}');
  });

  it('checks values as Meta does: all there, no new line, tab or five spaces', () => {
    expect(templateValuesProblem(2, ['a', 'b'])).toBeNull();
    expect(templateValuesProblem(2, ['a'])).toBe(msg.templateValuesMissing(2));
    expect(templateValuesProblem(1, ['  '])).toBe(msg.templateValuesMissing(1));
    expect(templateValuesProblem(1, ['a\tb'])).toBe(msg.templateValueInvalid);
    expect(templateValuesProblem(1, ['a     b'])).toBe(msg.templateValueInvalid);
    expect(templateValuesProblem(1, ['a    b'])).toBeNull();
  });
});
