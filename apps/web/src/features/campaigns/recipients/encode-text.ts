/**
 * Pasted text as UTF-8 bytes, encoded on the page in slices that each take a few
 * milliseconds, yielding between them: the bytes are then transferred to the worker, which
 * beats cloning a 14 MB string into it and encoding there, and no slice is a long task
 * (docs/performance.md, recipient parsing: no task over 50 ms).
 */
export const SLICE_CHARS = 2 ** 22;

const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function encodeInSlices(text: string): Promise<ArrayBuffer> {
  const encoder = new TextEncoder();
  // Mostly ASCII: one byte a character, grown when a slice needs more.
  let out = new Uint8Array(text.length + 16);
  let written = 0;
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + SLICE_CHARS, text.length);
    // Never split a surrogate pair between two slices.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    const slice = text.slice(start, end);
    if (out.length - written < slice.length * 3) {
      const grown = new Uint8Array(Math.max(out.length * 2, written + slice.length * 3));
      grown.set(out.subarray(0, written));
      out = grown;
    }
    written += encoder.encodeInto(slice, out.subarray(written)).written;
    start = end;
    if (start < text.length) await yieldToPage();
  }
  return out.buffer.slice(0, written);
}
