import { useMemo, useState } from 'react';
import type { SessionUser } from '@herald/contract';
import type { FilterSearch } from '../../components/filters-card';
import { matchesTerm, type SearchOption } from '../../components/search-select-logic';
import { useUserSearch } from '../../api/users/get-users';

interface NamedUser {
  name: string;
  email: string;
}

/** 'Name (email)', value the email: the User Email filter's options. */
export const userEmailOption = (u: NamedUser): SearchOption => ({
  value: u.email,
  label: `${u.name} (${u.email})`,
});

/**
 * The User Email filter's matches for `term`. A manager searches /api/users (its scope without
 * itself) and has itself first; a User cannot list users, so it filters the users the history
 * answer offers (only itself).
 */
export function historyUserOptions(
  me: SessionUser,
  term: string,
  searched: readonly NamedUser[] | undefined,
  offered: readonly NamedUser[],
): SearchOption[] {
  if (me.role === 'User') return offered.map(userEmailOption).filter((o) => matchesTerm(o, term));
  const self = userEmailOption(me);
  const others = (searched ?? []).filter((u) => u.email !== me.email).map(userEmailOption);
  return matchesTerm(self, term) ? [self, ...others] : others;
}

/** The User Email filter's state: what is typed, and the matches for it. */
export function useHistoryUserFilter(
  me: SessionUser | undefined,
  offered: readonly NamedUser[],
): FilterSearch {
  const [term, setTerm] = useState('');
  const canSearch = !!me && me.role !== 'User';
  const search = useUserSearch(term, canSearch);
  const options = useMemo(
    () => (me ? historyUserOptions(me, term, search.data, offered) : []),
    [me, term, search.data, offered],
  );
  return { term, onTermChange: setTerm, options, searching: search.searching };
}
