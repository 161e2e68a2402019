import {
  normalizeRecipient,
  server,
  ui,
  type SuppressionSource,
  type User,
} from '@herald/contract';

/** The Suppression List's pure rules, apart from its screen (docs/product.md, Opt-outs). */

/** How an entry came on the list, in the screen's words. */
export function sourceLabel(source: SuppressionSource): string {
  return ui.suppressions.sources[source];
}

/** The owner filter's matches: each user by name and email, its value the user's id. */
export function ownerFilterOptions(users: readonly Pick<User, 'id' | 'name' | 'email'>[] = []) {
  return users.map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }));
}

/** What the search box holds as the list's search: its digits, or nothing. */
export function searchDigits(term: string): string {
  return term.replace(/\D/g, '').slice(0, 15);
}

/**
 * The Add field's check before a request: the number the server will store, or the server's
 * own message for what it would refuse.
 */
export function checkPhone(input: string): { phone: string } | { error: string } {
  const phone = normalizeRecipient(input.trim());
  return phone === null ? { error: server.suppressionPhoneInvalid } : { phone };
}
