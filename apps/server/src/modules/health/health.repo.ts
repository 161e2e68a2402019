import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';

/** The smallest statement the database must answer: the health check's probe. */
export async function pingDatabase(db: DbOrTx): Promise<void> {
  await sql`SELECT 1`.execute(db);
}
