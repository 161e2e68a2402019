import zlib from 'node:zlib';

/** A PNG of `width`×`height` RGB pixels, `row(y)` giving row y's bytes (3 per pixel). */
function rgbPng(width: number, height: number, row: (y: number) => Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const rows = Array.from({ length: height }, (_, y) => Buffer.concat([Buffer.from([0]), row(y)]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real w×h RGB PNG that the browser decodes (a blue gradient). */
export function png(w: number, h: number): Buffer {
  const row = Buffer.alloc(w * 3);
  for (let x = 0; x < w; x++) row.set([30, 110 + (x % 100), 200], x * 3);
  return rgbPng(w, h, () => row);
}

/** A PNG of one colour (`hex`: rrggbb), so a screenshot shows where the picture is. */
export function solidPng(width: number, height: number, hex: string): Buffer {
  const row = Buffer.from(hex.repeat(width), 'hex');
  return rgbPng(width, height, () => row);
}

/** A PNG of one colour with a white bar across its middle third (a logo). */
export function barPng(width: number, height: number, hex: string): Buffer {
  const plain = Buffer.from(hex.repeat(width), 'hex');
  const white = Buffer.from('ffffff'.repeat(width), 'hex');
  return rgbPng(width, height, (y) => (y > height / 3 && y < (2 * height) / 3 ? white : plain));
}

export const pngFile = (name: string, w: number, h: number) => ({
  name,
  mimeType: 'image/png',
  buffer: png(w, h),
});
