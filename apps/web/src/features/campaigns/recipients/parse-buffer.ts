/**
 * What the parser worker does with one request, kept apart from the worker's global scope so
 * it also runs (and is tested) without a Worker.
 */
import { ui } from '@herald/contract';
import type { ScanResult } from './keys';
import { parseCsvBytes, parseTextBytes } from './scan-text';
import { parseXlsBytes, ParserUnavailableError } from './scan-xls';
import { parseXlsxBytes } from './scan-xlsx';

export type ParseKind = 'text' | 'csv' | 'xlsx' | 'xls';

/**
 * A file's bytes or pasted text's UTF-8 bytes (encoded in slices on the page, encode-text.ts),
 * transferred; or text as a string, encoded here.
 */
export type ParseRequest =
  { id: number; kind: ParseKind; buffer: ArrayBuffer } | { id: number; kind: 'text'; text: string };

export type ParseReply =
  | {
      id: number;
      /** Sorted unique keys (keys.ts); its buffer is transferred back. */
      keys: Float64Array;
      kept: number;
      invalid: number;
      invalidEntries: string[];
      invalidDigits: number[];
      ignored: number;
      duplicates: number;
    }
  | { id: number; error: string };

export async function parseBuffer(kind: ParseKind, buffer: ArrayBuffer): Promise<ScanResult> {
  const bytes = new Uint8Array(buffer);
  switch (kind) {
    case 'text':
      return parseTextBytes(bytes);
    case 'csv':
      return parseCsvBytes(bytes);
    case 'xlsx':
      return parseXlsxBytes(bytes);
    case 'xls':
      // SheetJS itself is imported inside, only when an .xls is chosen.
      return parseXlsBytes(bytes);
  }
}

export async function answer(
  request: ParseRequest,
): Promise<{ reply: ParseReply; transfer: Transferable[] }> {
  try {
    const buffer =
      'text' in request
        ? (new TextEncoder().encode(request.text).buffer as ArrayBuffer)
        : request.buffer;
    const r = await parseBuffer(request.kind, buffer);
    return { reply: { id: request.id, ...r }, transfer: [r.keys.buffer] };
  } catch (e) {
    const error =
      e instanceof ParserUnavailableError
        ? ui.campaigns.parserUnavailable
        : ui.campaigns.fileUnreadable;
    return { reply: { id: request.id, error }, transfer: [] };
  }
}
