/**
 * How one parsed input joins the form's recipient list. The list is kept as sorted unique keys
 * (keys.ts); an input counts a number as kept only when it is new to the list, so the figures
 * the form shows always add up to the total (docs/product.md, Campaigns).
 */
import { MAX_RECIPIENTS } from '@herald/contract';
import { mergeKeys } from './keys';

/** One input parsed on its own (the worker's answer): its sorted unique keys and its drops. */
export interface RecipientScan {
  keys: Float64Array;
  kept: number;
  /** Digit strings outside 7–15 digits. */
  invalid: number;
  /** Each invalid entry as written, in the order read, and its digit count (0: not known). */
  invalidEntries: string[];
  invalidDigits: number[];
  /** Not numbers (names, headers). */
  ignored: number;
  /** Repeats within the input. */
  duplicates: number;
}

export interface ParsedRecipients {
  /** Every recipient, existing and new: sorted unique keys. */
  keys: Float64Array;
  /** New numbers this input added. */
  kept: number;
  invalid: number;
  /** The input's invalid entries as written, and their digit counts (RecipientScan). */
  invalidEntries: string[];
  invalidDigits: number[];
  ignored: number;
  /** Repeats within the input plus numbers already present. */
  duplicates: number;
  /** More than MAX_RECIPIENTS in total. */
  overLimit: boolean;
}

/** `scan` joined to `existing`: the merged list, with the scan's figures against `existing`. */
export function addScan(existing: Float64Array, scan: RecipientScan): ParsedRecipients {
  const merged =
    existing.length === 0 ? { keys: scan.keys, duplicates: 0 } : mergeKeys(existing, scan.keys);
  return {
    keys: merged.keys,
    kept: scan.kept - merged.duplicates,
    invalid: scan.invalid,
    invalidEntries: scan.invalidEntries,
    invalidDigits: scan.invalidDigits,
    ignored: scan.ignored,
    duplicates: scan.duplicates + merged.duplicates,
    overLimit: merged.keys.length > MAX_RECIPIENTS,
  };
}

/**
 * The form's list is what was added at once (files, long pastes) plus what the Numbers box
 * holds now; the box's numbers are kept apart so that editing the box takes them back out.
 */
export function listOf(added: Float64Array, typed: RecipientScan | null): Float64Array {
  return typed ? addScan(added, typed).keys : added;
}
