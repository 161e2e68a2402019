/**
 * Opt-out keywords (docs/product.md, Opt-outs): a message a person sends back that holds one of
 * these words alone (any case, blanks around it ignored) puts the sender's number on, or takes
 * it off, the suppression list of the account whose campaign reached it. A word inside a
 * sentence ("please stop calling") is not a keyword: only a message that is the word counts.
 */
export const OPT_OUT_STOP_WORDS = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'OPTOUT',
] as const;
export const OPT_OUT_START_WORDS = ['START', 'UNSTOP', 'YES'] as const;

export type OptOutKeyword = 'stop' | 'start';

const STOP = new Set<string>(OPT_OUT_STOP_WORDS);
const START = new Set<string>(OPT_OUT_START_WORDS);

/**
 * 'stop' or 'start' for a message that is one keyword alone, else null. Upper-casing only ASCII
 * letters keeps look-alikes out ('ſtop' upper-cases to 'STOP' in JavaScript).
 */
export function optOutKeyword(text: string): OptOutKeyword | null {
  const word = text.trim();
  if (word.length === 0 || word.length > 11 || !/^[A-Za-z]+$/.test(word)) return null;
  const upper = word.toUpperCase();
  if (STOP.has(upper)) return 'stop';
  if (START.has(upper)) return 'start';
  return null;
}
