/**
 * The layout of PostgreSQL's binary COPY stream, as `COPY ... TO STDOUT (FORMAT binary)` sends
 * it and pg-copy-streams passes it on (the CopyData payloads joined, with no row boundaries):
 * a header (an 11-byte signature, 32 bits of flags, a 32-bit extension length and the
 * extension), then one tuple per row (a 16-bit field count, then per field a 32-bit length, -1
 * for NULL, and that many bytes), then a trailer (a field count of -1). All big-endian.
 * Tuples are self-delimiting: walking their lengths finds where each row ends, wherever the
 * stream's chunks were cut.
 */

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** The header without its extension: signature, flags, extension length. */
const HEADER_BYTES = 19;

/** Not all of it is there yet. */
export const INCOMPLETE = -1;
/** The trailer (the stream's end), not a tuple. */
export const TRAILER = -2;

const int32 = (b: Uint8Array, p: number): number =>
  (b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;

/** Where the header of bytes `0..end` of `b` ends, or INCOMPLETE; throws on a wrong signature. */
export function headerEnd(b: Uint8Array, end: number): number {
  for (let i = 0; i < Math.min(end, SIGNATURE.length); i++) {
    if (b[i] !== SIGNATURE[i]) throw new Error('COPY: not a binary COPY stream');
  }
  if (end < HEADER_BYTES) return INCOMPLETE;
  const extension = int32(b, 15);
  if (extension < 0) throw new Error('COPY: a header extension of negative length');
  return end < HEADER_BYTES + extension ? INCOMPLETE : HEADER_BYTES + extension;
}

/**
 * Where the tuple starting at `p` ends, if it ends by `end`; INCOMPLETE if it does not, TRAILER
 * if the stream's trailer starts at `p`.
 */
export function tupleEnd(b: Uint8Array, p: number, end: number): number {
  if (p + 2 > end) return INCOMPLETE;
  const count = ((b[p]! << 24) | (b[p + 1]! << 16)) >> 16;
  if (count === -1) return TRAILER;
  if (count < 0) throw new Error(`COPY: a tuple of ${count} fields`);
  let f = p + 2;
  for (let i = 0; i < count; i++) {
    if (f + 4 > end) return INCOMPLETE;
    const n = int32(b, f);
    if (n < -1) throw new Error(`COPY: a field of ${n} bytes`);
    f += n > 0 ? 4 + n : 4;
  }
  return f > end ? INCOMPLETE : f;
}
