import type { SharedStringsTable } from './shared-strings.js';

/** The types of copy-to-xml.ts's converter (which keeps its source self-contained). */

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
  more: boolean;
}

export interface CopyToXmlConverter {
  /**
   * Adds a chunk of CopyData frames; gives back the XML of up to `maxRows` whole rows, how many,
   * and whether whole rows are left over (call again with `null` for them once the sheet
   * changed). A frame cut short waits for the next chunk.
   */
  push(chunk: Buffer | null, maxRows: number): CopyXmlBatch;
  /**
   * Gives a batch's XML memory back once it is no longer read (deflated), for a later batch to
   * write into instead of new memory.
   */
  recycle(xml: Buffer): void;
  /** Bytes left that make no whole row (none at a COPY's end). */
  readonly pending: number;
  /** Cells written as an index into the shared strings. */
  readonly references: number;
}

export type CopyToXmlClass = new (
  kinds: readonly CopyFieldKind[],
  shared?: SharedStringsTable | null,
) => CopyToXmlConverter;
