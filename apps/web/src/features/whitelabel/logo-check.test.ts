import { describe, expect, it } from 'vitest';
import { MAX_LOGO_BYTES, server } from '@herald/contract';
import { logoProblem } from './logo-check';

const PNG = Uint8Array.from(
  atob(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  ),
  (c) => c.charCodeAt(0),
);
const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9,
]);
const GIF = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;');

describe('logoProblem', () => {
  it('takes a PNG or JPEG by its bytes, whatever the name', async () => {
    expect(await logoProblem(new File([PNG], 'logo.bin'))).toBeNull();
    expect(await logoProblem(new File([JPEG], 'logo.txt', { type: 'text/plain' }))).toBeNull();
  });

  it('refuses a text file named logo.png and a GIF', async () => {
    const text = new File(['not an image'], 'logo.png', { type: 'image/png' });
    expect(await logoProblem(text)).toBe(server.logoType);
    expect(await logoProblem(new File([GIF], 'logo.png', { type: 'image/png' }))).toBe(
      server.logoType,
    );
  });

  it('refuses a logo over the size limit', async () => {
    const big = new File([PNG, new Uint8Array(MAX_LOGO_BYTES)], 'logo.png');
    expect(await logoProblem(big)).toBe(server.logoTooLarge);
  });
});
