/** One choice of a SearchSelect. */
export interface SearchOption {
  value: string;
  label: string;
}

/**
 * What the closed box shows for `value`: the empty choice's label, the label the value was last
 * seen with, or the value itself (picked elsewhere, never seen in a result).
 */
export function labelOf(
  value: string,
  emptyLabel: string | undefined,
  seen: ReadonlyMap<string, string>,
): string {
  const known = seen.get(value);
  if (known !== undefined) return known;
  return value || (emptyLabel ?? '');
}

/** Whether a choice's label contains what was typed, in any case (filtering a fixed list). */
export function matchesTerm(option: SearchOption, term: string): boolean {
  const t = term.trim().toLowerCase();
  return !t || option.label.toLowerCase().includes(t);
}
