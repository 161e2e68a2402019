// Good: a repo file runs SQL.
import { sql, type Kysely } from 'kysely';

export interface AlphaRow {
  id: string;
}

export const findAlpha = (id: string): string => `alpha ${id}`;

export const countAlphas = (db: Kysely<{ alphas: AlphaRow }>) =>
  db
    .selectFrom('alphas')
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst();
