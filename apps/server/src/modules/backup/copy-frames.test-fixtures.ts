/** CopyData frames (`d`, length, payload) of rows of tab-separated fields, as COPY sends them. */
export function copyDataFrames(rows: string[][]): Buffer {
  return Buffer.concat(
    rows.map((r) => {
      const payload = Buffer.from(`${r.join('\t')}\n`, 'utf8');
      const head = Buffer.alloc(5);
      head[0] = 0x64;
      head.writeUInt32BE(payload.length + 4, 1);
      return Buffer.concat([head, payload]);
    }),
  );
}
