/**
 * Recipient rules (decisions.md section 4), shared by the browser's parser and the server:
 * a token loses spaces, '+', '-', '(', ')' and '.', and is kept when 7 to 15 digits remain
 * (E.164's maximum); duplicates are dropped. Pasted text splits on whitespace, commas and
 * semicolons (newlines are whitespace).
 */
export const RECIPIENT_MIN_DIGITS = 7;
export const RECIPIENT_MAX_DIGITS = 15;
export const MAX_RECIPIENTS = 1_000_000;

export const RECIPIENT_SEPARATORS = /[\s,;]+/;
const STRIP = /[\s+\-().]/g;
const DIGITS = /^\d+$/;

/**
 * A token that still holds something other than digits after stripping (letters: a name, a
 * header) or nothing at all ('-') is not a number: spec 5 reads only all-digit cells, so the
 * form reports it as 'Ignored (not a number)', apart from 'Invalid' digit strings (not 7–15).
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

export interface RecipientCounts {
  kept: number;
  /** Digit strings outside 7–15 digits. */
  invalid: number;
  /** Tokens that are not numbers (isNotANumber). */
  ignored: number;
  duplicates: number;
}

/**
 * The reference implementation over strings: kept numbers in first-seen order with the
 * counts the form shows. The browser's fast parser must give the same set and counts.
 */
export function parseRecipientText(text: string): RecipientCounts & { numbers: string[] } {
  const seen = new Set<string>();
  const numbers: string[] = [];
  let invalid = 0;
  let ignored = 0;
  let duplicates = 0;
  for (const token of text.split(RECIPIENT_SEPARATORS)) {
    if (!token) continue;
    const n = normalizeRecipient(token);
    if (n === null && isNotANumber(token)) ignored++;
    else if (n === null) invalid++;
    else if (seen.has(n)) duplicates++;
    else {
      seen.add(n);
      numbers.push(n);
    }
  }
  return { numbers, kept: numbers.length, invalid, ignored, duplicates };
}
