/**
 * The recipient rules (docs/product.md, How numbers are read). Pasted text splits into lines
 * at commas, semicolons, tabs and line breaks; spaces split a line into pieces. A piece loses
 * '+', '-', '(', ')' and '.'; one with anything else (letters, quotes) is not a number.
 *
 * RECIPIENT_JOINING: people write one number in several pieces ("+91 98765 43210",
 * "(987) 654-3212"), so the pieces of a line are read left to right into entries. A piece of
 * fewer than 7 digits is too short to be a number: it is gathered with the pieces after it.
 * A piece of 7 or more digits completes what was gathered before it when the whole stays
 * within 15 digits, else it stands alone (and what was gathered is an entry of its own). A
 * piece starting with '+' starts a new entry; a piece that is not a number ends one. An entry
 * of 7 to 15 digits is kept (E.164's maximum is 15), other digit counts are invalid, and an
 * entry with no digit is not a number (ignored). Duplicates are dropped.
 *
 * Two parsers apply them, each fast for its target: the server's (campaigns
 * `recipient-scan.ts`) and the browser's (campaigns `recipients/scan-text.ts`); the table in
 * recipient-cases.ts keeps them in agreement. Files read a cell as one entry instead (spaces
 * inside a cell are dropped).
 */
export const RECIPIENT_MIN_DIGITS = 7;
export const RECIPIENT_MAX_DIGITS = 15;
export const MAX_RECIPIENTS = 1_000_000;
/** Invalid entries the Create Campaign form lists on screen; the download holds them all. */
export const INVALID_ENTRIES_SHOWN = 100;

export const RECIPIENT_SEPARATORS = /[\s,;]+/;
const STRIP = /[\s+\-().]/g;
const DIGITS = /^\d+$/;

/**
 * A token that still holds something other than digits after stripping (letters: a name, a
 * header) or nothing at all ('-') is not a number: only all-digit cells count, so the form
 * reports it as 'Ignored (not a number)', apart from 'Invalid' digit strings (not 7–15).
 */
export function isNotANumber(token: string): boolean {
  return !DIGITS.test(token.replace(STRIP, ''));
}

/** The normalised number, or null when the token is not 7–15 digits after stripping. */
export function normalizeRecipient(token: string): string | null {
  const digits = token.replace(STRIP, '');
  if (digits.length < RECIPIENT_MIN_DIGITS || digits.length > RECIPIENT_MAX_DIGITS) return null;
  return DIGITS.test(digits) ? digits : null;
}
