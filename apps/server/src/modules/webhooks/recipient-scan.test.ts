import { describe, expect, it } from 'vitest';
import { nextScanWait, SCAN_MAX_WAIT_MS, SCAN_MIN_WAIT_MS } from './recipient-scan.js';

describe('the recipients scan pacing', () => {
  it('waits ten times the last scan, from 2 s to 15 s', () => {
    expect(nextScanWait(0)).toBe(SCAN_MIN_WAIT_MS);
    expect(nextScanWait(150)).toBe(SCAN_MIN_WAIT_MS);
    // A 1M-recipient campaign's pass took about 1 s: the next one 10 s later.
    expect(nextScanWait(1_000)).toBe(10_000);
    expect(nextScanWait(4_000)).toBe(SCAN_MAX_WAIT_MS);
  });
});
