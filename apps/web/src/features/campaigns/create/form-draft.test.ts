import { describe, expect, it } from 'vitest';
import { EMPTY_VALUES } from './create-form-logic';
import { clearDraft, draftKey, isEmptyDraft, loadDraft, saveDraft } from './form-draft';
import { NO_TEMPLATE } from './template-choice';

/** A Storage over a Map, as sessionStorage behaves. */
function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, String(v)),
  };
}

const typed = {
  values: {
    ...EMPTY_VALUES,
    userEmail: 'someone@herald.example',
    creditType: 'With DP - domestic' as const,
    name: 'Diwali offer',
    message: 'Hello\nthere',
  },
  numbers: '9876543210\n9876543211',
  template: { templateId: '5b0c7f7e-0000-4000-8000-000000000001', values: ['Asha', ''] },
};

describe('campaign draft', () => {
  it('keeps the texts, the template’s values and the numbers per user, not the owner', () => {
    const s = memoryStorage();
    saveDraft(s, 'u1', typed);
    expect(loadDraft(s, 'u2')).toBeNull();
    expect(loadDraft(s, 'u1')).toEqual({
      values: { ...typed.values, userEmail: '' },
      numbers: typed.numbers,
      template: typed.template,
    });
    clearDraft(s, 'u1');
    expect(loadDraft(s, 'u1')).toBeNull();
  });

  it('stores nothing for an untouched form and drops a draft emptied again', () => {
    const s = memoryStorage();
    const empty = {
      values: { ...EMPTY_VALUES, creditType: 'With DP - domestic' as const },
      numbers: ' ',
      // A template chosen with nothing typed in its variables is not a draft either.
      template: { templateId: typed.template.templateId, values: ['', ' '] },
    };
    expect(isEmptyDraft(empty)).toBe(true);
    expect(isEmptyDraft({ ...empty, template: typed.template })).toBe(false);
    saveDraft(s, 'u1', typed);
    saveDraft(s, 'u1', empty);
    expect(s.getItem(draftKey('u1'))).toBeNull();
  });

  it('ignores what it did not write: bad JSON, unknown types, wrong shapes', () => {
    const s = memoryStorage();
    s.setItem(draftKey('u1'), '{not json');
    expect(loadDraft(s, 'u1')).toBeNull();
    s.setItem(draftKey('u1'), JSON.stringify({ values: 'x', numbers: '' }));
    expect(loadDraft(s, 'u1')).toBeNull();
    s.setItem(
      draftKey('u1'),
      JSON.stringify({ values: { creditType: 'Gold', message: 7, name: 'N' }, numbers: '' }),
    );
    expect(loadDraft(s, 'u1')).toEqual({
      values: { ...EMPTY_VALUES, name: 'N' },
      numbers: '',
      template: NO_TEMPLATE,
    });
    const badTemplates = [{ templateId: 7, values: [] }, { templateId: 'x', values: [1] }, 'x'];
    for (const template of badTemplates) {
      s.setItem(draftKey('u1'), JSON.stringify({ values: {}, numbers: '1', template }));
      expect(loadDraft(s, 'u1')?.template).toEqual(NO_TEMPLATE);
    }
  });

  it('loses only the draft when storage refuses it', () => {
    const s = memoryStorage();
    s.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    expect(() => saveDraft(s, 'u1', typed)).not.toThrow();
  });
});
