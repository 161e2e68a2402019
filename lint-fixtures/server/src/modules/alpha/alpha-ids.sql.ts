// Good: a fragment file holds SQL expressions for the repo files to compose.
import { sql } from 'kysely';

export const newestFirst = sql`created_at DESC`;
