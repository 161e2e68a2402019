import { FROZEN_HEADER, WORKSHEET_OPEN } from '../../lib/xlsx-parts.js';
import { escapeXml } from '../../lib/xlsx-text.js';

/**
 * A backup sheet's XML around its rows, for backup-zip.ts (which takes sheets already deflated,
 * so lib/xlsx-writer.ts, which owns its zip, cannot write them); the workbook's other parts are
 * lib/xlsx-parts.ts's, as the exports have them.
 */

/** A sheet's XML up to and with its header row (bold, kept in view while scrolling). */
export function sheetHead(columns: readonly string[]): Buffer {
  const header = columns
    .map((c) => `<c t="inlineStr" s="1"><is><t>${escapeXml(c)}</t></is></c>`)
    .join('');
  return Buffer.from(`${WORKSHEET_OPEN}${FROZEN_HEADER}<sheetData><row>${header}</row>`, 'utf8');
}

export const SHEET_TAIL = Buffer.from('</sheetData></worksheet>', 'latin1');
