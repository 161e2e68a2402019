import { describe, expect, it } from 'vitest';
import { server as msg, TEMPLATE_LIMITS, type SenderTemplate } from '@herald/contract';
import { EMPTY_FILES, EMPTY_VALUES } from './create-form-logic';
import {
  chooseTemplate,
  chosenTemplate,
  copiedChoice,
  NO_TEMPLATE,
  sentAs,
  templateFields,
  templatePreview,
  templateProblem,
  valueRefused,
} from './template-choice';

const template: SenderTemplate = {
  id: 't1',
  senderId: 's1',
  name: 'order_update',
  language: 'en_US',
  body: 'Hi {{1}}, your order {{2}} ships today. Thanks, {{1}}!',
  variables: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const other: SenderTemplate = {
  ...template,
  id: 't2',
  name: 'welcome',
  body: 'Welcome!',
  variables: 0,
};

describe('the campaign form’s template', () => {
  it('counts as chosen only while the credit type offers it', () => {
    const choice = { templateId: 't1', values: ['Asha', 'A-12'] };
    expect(chosenTemplate(choice, [other, template])).toBe(template);
    expect(chosenTemplate(choice, [other])).toBeNull();
    expect(chosenTemplate(choice, undefined)).toBeNull();
    expect(chosenTemplate(NO_TEMPLATE, [template])).toBeNull();
  });

  it('gives one value per variable, keeping those typed, and none for No template', () => {
    expect(chooseTemplate(NO_TEMPLATE, template)).toEqual({ templateId: 't1', values: ['', ''] });
    const typed = { templateId: 't2', values: ['Asha', 'A-12', 'x'] };
    expect(chooseTemplate(typed, template).values).toEqual(['Asha', 'A-12']);
    expect(chooseTemplate(typed, other)).toEqual({ templateId: 't2', values: [] });
    expect(chooseTemplate(typed, null)).toBe(NO_TEMPLATE);
  });

  it('previews the filled text, a variable still empty left as {{n}}', () => {
    const choice = { templateId: 't1', values: [' Asha ', ''] };
    expect(templatePreview(choice, template)).toBe(
      'Hi Asha, your order {{2}} ships today. Thanks, Asha!',
    );
  });

  it('refuses the values with the server’s own messages', () => {
    const check = (values: string[]) => templateProblem({ templateId: 't1', values }, template);
    expect(check(['Asha', ' '])).toBe(msg.templateValuesMissing(2));
    expect(check(['Asha', 'A     12'])).toBe(msg.templateValueInvalid);
    expect(check(['Asha', 'x'.repeat(TEMPLATE_LIMITS.valueMax + 1)])).toBe(
      msg.templateValueTooLong(TEMPLATE_LIMITS.valueMax),
    );
    expect(check(['Asha', 'A-12'])).toBeNull();
    expect(valueRefused(' ')).toBe(true);
    expect(valueRefused('a\tb')).toBe(true);
    expect(valueRefused('A-12')).toBe(false);
  });

  it('sends the id, the trimmed values as JSON and the filled text as the message', () => {
    expect(templateFields({ templateId: 't1', values: [' Asha', 'A-12 '] }, template)).toEqual({
      templateId: 't1',
      templateValues: '["Asha","A-12"]',
      message: 'Hi Asha, your order A-12 ships today. Thanks, Asha!',
    });
  });

  it('shows the campaign as sent: the filled text, no buttons, no files but the DP', () => {
    const dp = new File(['x'], 'dp.png', { type: 'image/png' });
    const image = new File(['x'], 'a.png', { type: 'image/png' });
    const values = { ...EMPTY_VALUES, message: 'typed', ctaCallText: 'Call', ctaURLText: 'Go' };
    const files = { ...EMPTY_FILES, dp, images: [image] };
    const choice = { templateId: 't1', values: ['Asha', 'A-12'] };
    expect(sentAs(values, files, { template: null, choice })).toEqual({ values, files });
    const shown = sentAs(values, files, { template, choice });
    expect(shown.values).toMatchObject({ message: templateFields(choice, template).message });
    expect(shown.values).toMatchObject({ ctaCallText: '', ctaURLText: '' });
    expect(shown.files).toEqual({ ...EMPTY_FILES, dp });
  });

  it('chooses a copied campaign’s template again by name and language, if still offered', () => {
    const kept = { name: 'order_update', language: 'en_US', bodyParameters: ['Asha', 'A-12'] };
    expect(copiedChoice(kept, [other, template])).toEqual({
      templateId: 't1',
      values: ['Asha', 'A-12'],
    });
    expect(copiedChoice({ ...kept, language: 'en' }, [template])).toBe(NO_TEMPLATE);
    expect(copiedChoice(null, [template])).toBe(NO_TEMPLATE);
  });
});
