import { describe, expect, it } from 'vitest';
import { previewLines, splitLinks } from './preview-text';

describe('previewLines', () => {
  it('keeps every line, blank ones too', () => {
    expect(previewLines('Hi\r\n\nthere')).toEqual([[{ text: 'Hi' }], [], [{ text: 'there' }]]);
  });

  it('makes http(s) and www links clickable, leaving closing punctuation out', () => {
    expect(splitLinks('See https://a.example/x?y=1, or www.b.example.')).toEqual([
      { text: 'See ' },
      { text: 'https://a.example/x?y=1', href: 'https://a.example/x?y=1' },
      { text: ', or ' },
      { text: 'www.b.example', href: 'https://www.b.example' },
      { text: '.' },
    ]);
  });

  it('never makes a link of other schemes', () => {
    expect(splitLinks('javascript:alert(1) <b>hi</b>')).toEqual([
      { text: 'javascript:alert(1) <b>hi</b>' },
    ]);
  });
});
