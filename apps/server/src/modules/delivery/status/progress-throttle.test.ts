import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressThrottle } from './progress-throttle.js';

/** The status writer's live NOTIFYs per campaign: the first at once, then one per interval. */

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

function throttle() {
  const later: string[][] = [];
  const p = new ProgressThrottle((ids) => {
    later.push([...ids].sort());
    return Promise.resolve();
  }, 250);
  return { p, later };
}

describe('ProgressThrottle', () => {
  it('publishes the first batch of a burst with it, and one trailing NOTIFY for the rest', () => {
    const { p, later } = throttle();
    expect(p.take(['a'])).toEqual(['a']);
    // Forty batches in the next 200 ms: none publishes with its own commit.
    for (let i = 0; i < 40; i++) {
      vi.advanceTimersByTime(5);
      expect(p.take(['a'])).toEqual([]);
    }
    expect(later).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(later).toEqual([['a']]);
    // Nothing changed since: no more NOTIFYs however long it stays quiet.
    vi.advanceTimersByTime(10_000);
    expect(later).toEqual([['a']]);
    // The next change after a quiet interval publishes at once again.
    expect(p.take(['a'])).toEqual(['a']);
  });

  it('keeps each campaign to its own interval', () => {
    const { p, later } = throttle();
    expect(p.take(['a'])).toEqual(['a']);
    vi.advanceTimersByTime(100);
    expect(p.take(['a', 'b'])).toEqual(['b']);
    vi.advanceTimersByTime(100);
    expect(p.take(['a', 'b'])).toEqual([]);
    vi.advanceTimersByTime(50); // a's interval ends; b's not yet
    expect(later).toEqual([['a']]);
    vi.advanceTimersByTime(100);
    expect(later).toEqual([['a'], ['b']]);
    // a was published by its trailing NOTIFY 250 ms ago, b 150 ms ago.
    vi.advanceTimersByTime(150);
    expect(p.take(['a', 'b'])).toEqual(['a']);
  });

  it('close drops a waiting trailing NOTIFY', () => {
    const { p, later } = throttle();
    p.take(['a']);
    vi.advanceTimersByTime(10);
    expect(p.take(['a'])).toEqual([]);
    p.close();
    vi.advanceTimersByTime(1_000);
    expect(later).toEqual([]);
  });

  it('a batch past the interval publishes with its commit: no trailing NOTIFY after it', () => {
    const { p, later } = throttle();
    p.take(['a']);
    vi.advanceTimersByTime(10);
    p.take(['a']); // waits for the trailing one at 250
    // The timer's callback has not run yet (the event loop was busy) when the next batch comes.
    vi.setSystemTime(300);
    expect(p.take(['a'])).toEqual(['a']);
    vi.advanceTimersByTime(1_000);
    expect(later).toEqual([]);
  });
});
