// Bad: SQL outside a repo file, both a `sql` tag and a statement builder.
import { sql, type Kysely } from 'kysely';

export const betaCount = (db: Kysely<{ betas: { id: string } }>) =>
  db
    .selectFrom('betas')
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst();
