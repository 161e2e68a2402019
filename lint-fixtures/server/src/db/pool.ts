// Good: the database layer itself may run SQL.
import type pg from 'pg';

export async function ping(pool: pg.Pool): Promise<void> {
  await pool.query('SELECT 1');
}
