import { describe, expect, it } from 'vitest';
import { OPT_OUT_START_WORDS, OPT_OUT_STOP_WORDS, optOutKeyword } from './opt-out.js';

describe('optOutKeyword', () => {
  it('reads every stop and start word in any case, blanks around it ignored', () => {
    for (const w of OPT_OUT_STOP_WORDS) {
      expect(optOutKeyword(w)).toBe('stop');
      expect(optOutKeyword(w.toLowerCase())).toBe('stop');
      expect(optOutKeyword(`  ${w[0]}${w.slice(1).toLowerCase()}\n`)).toBe('stop');
    }
    for (const w of OPT_OUT_START_WORDS) {
      expect(optOutKeyword(w)).toBe('start');
      expect(optOutKeyword(`\t${w.toLowerCase()} `)).toBe('start');
    }
    expect(optOutKeyword('\u00a0Stop\u00a0')).toBe('stop');
  });

  it('ignores a keyword inside a sentence, with punctuation, or a look-alike', () => {
    for (const text of [
      '',
      '   ',
      'please stop',
      'STOP now',
      'stop.',
      'STOP!',
      'STOPP',
      'ST OP',
      'yes please',
      'ſtop',
      'start2',
      'hello',
    ]) {
      expect(optOutKeyword(text), text).toBeNull();
    }
  });
});
