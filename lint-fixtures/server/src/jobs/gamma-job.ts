// Bad: a driver's query outside a repo file.
import type pg from 'pg';

export async function gammaJob(pool: pg.Pool): Promise<void> {
  await pool.query('SELECT 1');
}
