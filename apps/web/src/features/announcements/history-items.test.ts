import { describe, expect, it } from 'vitest';
import { learnMoreHref } from './history-items';

describe('learnMoreHref', () => {
  it('links only http(s) targets, as the bell does', () => {
    expect(learnMoreHref({ link: 'https://example.com/a' })).toBe('https://example.com/a');
    expect(learnMoreHref({ link: 'HTTP://example.com' })).toBe('HTTP://example.com');
    for (const link of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      '//evil.example',
      '/relative',
      '',
      null,
    ]) {
      expect(learnMoreHref({ link })).toBeNull();
    }
  });
});
