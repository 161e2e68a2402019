import { describe, expect, it } from 'vitest';
import { labelOf, matchesTerm } from './search-select-logic';

describe('labelOf', () => {
  const seen = new Map([['a@x.test', 'Asha (a@x.test)']]);
  it('shows the empty choice for no value', () => {
    expect(labelOf('', 'All Relevant Users', seen)).toBe('All Relevant Users');
    expect(labelOf('', undefined, seen)).toBe('');
  });
  it('keeps the label a value was seen with, else the value itself', () => {
    expect(labelOf('a@x.test', 'All', seen)).toBe('Asha (a@x.test)');
    expect(labelOf('b@x.test', 'All', seen)).toBe('b@x.test');
  });
});

describe('matchesTerm', () => {
  const o = { value: 'a@x.test', label: 'Asha (a@x.test)' };
  it('matches any part of the label in any case, and everything for a blank term', () => {
    expect(matchesTerm(o, 'ASH')).toBe(true);
    expect(matchesTerm(o, ' x.te ')).toBe(true);
    expect(matchesTerm(o, '')).toBe(true);
    expect(matchesTerm(o, 'bo')).toBe(false);
  });
});
