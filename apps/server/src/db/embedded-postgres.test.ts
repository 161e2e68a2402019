import { describe, expect, it } from 'vitest';
import { sharedBuffersMb } from './embedded-postgres.js';

const GiB = 2 ** 30;

describe('sharedBuffersMb', () => {
  it('is a quarter of memory, at least the 128 MB default and at most 2 GB', () => {
    expect(sharedBuffersMb(0.25 * GiB)).toBe(128);
    expect(sharedBuffersMb(4 * GiB)).toBe(1024);
    expect(sharedBuffersMb(24 * GiB)).toBe(2048);
  });
});
