/** PostgreSQL's unique_violation: a concurrent request took the same unique value first. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '23505';
}
