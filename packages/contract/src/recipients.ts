/**
 * The recipient rules (docs/product.md, Campaigns): a token loses spaces, '+', '-', '(', ')'
 * and '.', and is kept when 7 to 15 digits remain (E.164's maximum); duplicates are dropped.
 * Pasted text splits on whitespace, commas and semicolons (newlines are whitespace). Two
 * parsers apply them, each fast for its target: the server's (campaigns `recipient-scan.ts`)
 * and the browser's (campaigns `recipients/scan-text.ts`); the table in recipient-cases.ts
 * keeps them in agreement.
 */
export const RECIPIENT_MIN_DIGITS = 7;
export const RECIPIENT_MAX_DIGITS = 15;
export const MAX_RECIPIENTS = 1_000_000;

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
