// Good: kysely's types are no SQL; only its `sql` tag and the builders' calls are.
import type { Kysely } from 'kysely';

export type BetaDb = Kysely<{ betas: { id: string } }>;
