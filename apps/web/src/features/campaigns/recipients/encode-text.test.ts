import { describe, expect, it } from 'vitest';
import { encodeInSlices, SLICE_CHARS } from './encode-text';

const decode = (b: ArrayBuffer) => new TextDecoder().decode(b);

describe('encodeInSlices', () => {
  it('gives the same bytes as TextEncoder, across slices and surrogate pairs', async () => {
    const emoji = '📞';
    const text = `${'9'.repeat(SLICE_CHARS - 1)}${emoji} 98765 43210\u00a0,१२३ ${'1'.repeat(100)}`;
    const bytes = new Uint8Array(await encodeInSlices(text));
    const expected = new TextEncoder().encode(text);
    // Buffer.equals: toEqual walks 2 MB element by element.
    expect(Buffer.from(bytes).equals(Buffer.from(expected))).toBe(true);
    expect(decode(bytes.buffer)).toBe(text);
  });

  it('handles empty and short text', async () => {
    expect((await encodeInSlices('')).byteLength).toBe(0);
    expect(decode(await encodeInSlices('1234567, 7654321'))).toBe('1234567, 7654321');
  });
});
