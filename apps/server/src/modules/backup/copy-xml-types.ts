/** The types of copy-to-xml.ts's converter. */

/**
 * How a field of the binary COPY is sent and written: `text` (text bytes, made safe), `safe`
 * (text bytes written as they are: a boolean's), `uuid` (16 bytes, written as text), `int` (an
 * int2, int4 or int8: a number), `number` (a float8's text: a number), `serial` (a float8's text
 * that is a date's sheet serial: a date cell), `date` (a timestamptz: a date cell).
 */
export type CopyFieldKind = 'text' | 'safe' | 'uuid' | 'int' | 'number' | 'serial' | 'date';

export interface CopyXmlBatch {
  xml: Buffer;
  rows: number;
}

export interface CopyToXmlConverter {
  /**
   * Adds a chunk of binary COPY tuples (no header, no trailer: the table pipe takes them out);
   * gives back the XML of the whole rows so far and how many. A tuple cut short waits for the
   * next chunk (`null`: no more bytes).
   */
  push(chunk: Buffer | null): CopyXmlBatch;
  /** Bytes left that make no whole row (none at a COPY's end). */
  readonly pending: number;
  /** Cells written as an index into the shared strings. */
  readonly references: number;
}
