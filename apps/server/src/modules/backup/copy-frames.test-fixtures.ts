/** A field of a binary COPY tuple: a text (UTF-8 bytes), an int8, or NULL. */
export type CopyField = string | bigint | null;

/**
 * CopyData frames (`d`, length, payload) of binary COPY tuples (field count, then each field's
 * length, -1 for NULL, and bytes), as copy-frames.ts passes them on: header and trailer out.
 */
export function copyDataFrames(rows: CopyField[][]): Buffer {
  return Buffer.concat(
    rows.map((r) => {
      const fields = r.map((f) => {
        const head = Buffer.alloc(4);
        if (f === null) {
          head.writeInt32BE(-1);
          return head;
        }
        let bytes: Buffer;
        if (typeof f === 'bigint') {
          bytes = Buffer.alloc(8);
          bytes.writeBigInt64BE(f);
        } else bytes = Buffer.from(f, 'utf8');
        head.writeInt32BE(bytes.length);
        return Buffer.concat([head, bytes]);
      });
      const count = Buffer.alloc(2);
      count.writeInt16BE(r.length);
      const payload = Buffer.concat([count, ...fields]);
      const head = Buffer.alloc(5);
      head[0] = 0x64;
      head.writeUInt32BE(payload.length + 4, 1);
      return Buffer.concat([head, payload]);
    }),
  );
}
