import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import type { AddressInfo } from 'node:net';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../test/harness.js';
import { unzip } from '../../../test/zip.js';
import type * as HistoryRepo from './history.repo.js';

/**
 * A large export streams: EXPORT_ROWS ledger entries (default 50,000, made in SQL)
 * reach the client in order, read from the database in bounded batches, and the first bytes
 * arrive while most batches are still unread: the server never holds the whole export.
 */
const ROWS = Number(process.env.EXPORT_ROWS ?? 50_000);

const reads = vi.hoisted(() => ({ batches: 0, limits: [] as number[] }));
vi.mock('./history.repo.js', async (importOriginal) => {
  const real = await importOriginal<typeof HistoryRepo>();
  return {
    ...real,
    historyRows: (...args: Parameters<typeof real.historyRows>) => {
      reads.batches++;
      reads.limits.push(args[3]);
      return real.historyRows(...args);
    },
  };
});

let t: TestApp;
let base = '';
let token = '';

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.db
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('email', '=', ADMIN_EMAIL)
    .executeTakeFirstOrThrow();
  // Entry i is i minutes after the first and counts i: the export's order is checkable.
  await sql`
    INSERT INTO credit_transactions (group_id, to_user_id, to_email, to_name, by_user_id,
      by_email, by_name, type, credit_type, count, rate_paise, total_paise, kind, created_at)
    SELECT gen_random_uuid(), ${admin.id}::uuid, ${admin.email}, ${admin.name}, ${admin.id}::uuid,
      ${admin.email}, ${admin.name}, 'Added', 'Normal Message - domestic', i, 10, 10 * i, 'mint',
      timestamptz '2024-01-01' + make_interval(mins => i)
    FROM generate_series(1, ${ROWS}::int) i ORDER BY i`.execute(t.db);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  token = await t.adminToken();
}, 120_000);
afterAll(() => t.close());

describe('a large history export', () => {
  it('streams every row in order, the first bytes long before the last batch is read', async () => {
    reads.batches = 0;
    reads.limits = [];
    const res = await fetch(`${base}/api/credits/history/export`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    const first = await reader.read();
    chunks.push(first.value!);
    const batchesAtFirstByte = reads.batches;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    // Every read asked for one bounded batch; the first bytes left after the first batch or
    // two of eleven. (Backpressure through a slow reader: xlsx-writer.test.ts.)
    expect(reads.batches).toBeGreaterThanOrEqual(Math.ceil(ROWS / 5_000));
    expect(Math.max(...reads.limits)).toBeLessThanOrEqual(5_000);
    expect(batchesAtFirstByte).toBeLessThanOrEqual(2);

    const file = Buffer.concat(chunks);
    const sheet = unzip(file).get('xl/worksheets/sheet1.xml')!;
    const rows = sheet.split('<row ').slice(1);
    expect(rows).toHaveLength(ROWS + 1); // the header, then newest first
    const counts = rows.slice(1).map((row) => {
      const values = [...row.matchAll(/<c r="H\d+"[^>]*><v>(\d+)<\/v>/g)].map((m) => m[1]);
      return Number(values[0]);
    });
    expect(counts[0]).toBe(ROWS);
    expect(counts.at(-1)).toBe(1);
    expect(counts.every((c, i) => c === ROWS - i)).toBe(true);
  }, 120_000);
});
