/**
 * Just enough zip for .xlsx: the central directory lists the entries, and stored or deflated
 * entries are inflated with DecompressionStream('deflate-raw') (browsers, Node >= 18).
 */
export const UNREADABLE = 'unreadable';

/** Thrown for anything that is not a readable zip (or is a zip bomb); the UI says 'Could not read the file.' */
export class UnreadableFileError extends Error {
  constructor(reason: string) {
    super(`${UNREADABLE}: ${reason}`);
  }
}

/** Refuse archives that claim more than this once inflated (a zip bomb). */
export const MAX_UNCOMPRESSED_BYTES = 200 * 1024 * 1024;

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export function readCentralDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= 0 && i >= bytes.length - 22 - 0xffff; i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new UnreadableFileError('no end of central directory');
  const count = view.getUint16(eocd + 10, true);
  let p = view.getUint32(eocd + 16, true);
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  for (let k = 0; k < count; k++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== CENTRAL) {
      throw new UnreadableFileError('bad central directory');
    }
    const nameLength = view.getUint16(p + 28, true);
    const extra = view.getUint16(p + 30, true);
    const comment = view.getUint16(p + 32, true);
    entries.push({
      method: view.getUint16(p + 10, true),
      compressedSize: view.getUint32(p + 20, true),
      size: view.getUint32(p + 24, true),
      localOffset: view.getUint32(p + 42, true),
      name: decoder.decode(bytes.subarray(p + 46, p + 46 + nameLength)),
    });
    p += 46 + nameLength + extra + comment;
  }
  let total = 0;
  for (const e of entries) {
    // 0xffffffff marks a zip64 size; an .xlsx of 1M rows is far below 4 GB.
    if (e.size === 0xffffffff || e.compressedSize === 0xffffffff) {
      throw new UnreadableFileError('zip64 is not supported');
    }
    total += e.size;
  }
  if (total > MAX_UNCOMPRESSED_BYTES) throw new UnreadableFileError('too large when inflated');
  return entries;
}

/** The entry's bytes, inflated; never more than the size the central directory declares. */
export async function inflateEntry(bytes: Uint8Array, entry: ZipEntry): Promise<Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const p = entry.localOffset;
  if (p + 30 > bytes.length || view.getUint32(p, true) !== LOCAL) {
    throw new UnreadableFileError('bad local header');
  }
  const start = p + 30 + view.getUint16(p + 26, true) + view.getUint16(p + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw new UnreadableFileError('truncated entry');
  const data = bytes.subarray(start, end);
  if (entry.method === 0) return data;
  if (entry.method !== 8) throw new UnreadableFileError('unknown compression');

  const out = new Uint8Array(entry.size);
  let n = 0;
  const stream = new Blob([data as BlobPart])
    .stream()
    .pipeThrough(new DecompressionStream('deflate-raw'));
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (n + value.length > out.length) throw new UnreadableFileError('larger than declared');
      out.set(value, n);
      n += value.length;
    }
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    throw e instanceof UnreadableFileError ? e : new UnreadableFileError('bad deflate data');
  }
  return n === out.length ? out : out.subarray(0, n);
}
