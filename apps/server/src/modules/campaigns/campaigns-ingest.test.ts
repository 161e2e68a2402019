import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  recipientKeysToStrings,
  server as msg,
  type CreateCampaignReply,
  type CreditType,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { copyIn } from '../../db/copy.js';
import { balanceOf, countEntries } from '../credits/credits.test-fixtures.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { campaignRows, file, fund, postCampaign } from './campaigns.test-fixtures.js';
import { recipientCopyChunks } from './recipient-copy.js';
import { scanRecipients } from './recipient-scan.js';

/** Large lists: COPY ingest, exact counts, all rows or none (docs/performance.md, campaign intake). */

const NORMAL: CreditType = 'Normal Message - domestic';
const BIG = 200_000;

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 250_000);
});
afterAll(() => t.close());

const message = (res: { json: <T>() => T }) => res.json<{ message: string }>().message;

/**
 * BIG distinct numbers (some with leading zeros, 7 to 15 digits, decorated), every 10th one
 * repeated, and invalid tokens between them; in a scrambled order.
 */
function bigList(): { text: string; distinct: number; duplicates: number; invalid: number } {
  const tokens: string[] = [];
  let invalid = 0;
  for (let i = 0; i < BIG; i++) {
    const digits = 7 + (i % 9);
    const n = String((i * 7919) % 10 ** Math.min(digits, 9)).padStart(digits, i % 3 ? '9' : '0');
    const unique = `${n.slice(0, digits - 6)}${String(i).padStart(6, '0')}`;
    tokens.push(i % 4 === 0 ? `+${unique.slice(0, 2)}-${unique.slice(2)}` : unique);
    if (i % 10 === 0) tokens.push(unique);
    if (i % 50 === 0) {
      tokens.push(i % 100 === 0 ? '123456' : `12a${unique}`);
      invalid++;
    }
  }
  for (let i = tokens.length - 1; i > 0; i--) {
    const j = (i * 48271) % (i + 1);
    [tokens[i], tokens[j]] = [tokens[j] as string, tokens[i] as string];
  }
  const text = tokens.map((tok, i) => (i % 7 === 0 ? `${tok}\n` : `${tok},`)).join('');
  return { text, distinct: BIG, duplicates: BIG / 10, invalid };
}

describe('POST /api/campaigns: large lists by COPY', () => {
  it(`stores ${BIG.toLocaleString('en')} numbers with duplicates and invalid tokens, exactly`, async () => {
    const list = bigList();
    const want = scanRecipients(list.text);
    // '123456' is invalid, '12a…' not a number: both dropped.
    expect([want.kept, want.duplicates, want.invalid + want.ignored]).toEqual([
      list.distinct,
      list.duplicates,
      list.invalid,
    ]);
    const before = await balanceOf(t.db, h.u1.user.id, NORMAL);
    const res = await postCampaign(t, h.u1.token, {
      creditType: NORMAL,
      message: 'Big',
      to: list.text,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    const id = res.json<CreateCampaignReply>().campaign._id;
    expect(res.json<CreateCampaignReply>().campaign.recipientCount).toBe(BIG);
    expect(await balanceOf(t.db, h.u1.user.id, NORMAL)).toBe(before - BIG);
    const { rows } = await sql<{ phone: string }>`
      SELECT phone FROM campaign_recipients WHERE campaign_id = ${id}::uuid ORDER BY phone`.execute(
      t.db,
    );
    expect(rows.length).toBe(BIG);
    const expected = recipientKeysToStrings(want.keys).sort();
    expect(rows.every((r, i) => r.phone === expected[i])).toBe(true);
  });

  it('takes `to` as a streamed file part too, with the same result', async () => {
    const text = '\ufeff9876543210\r\n+1 (555) 123-4567\n9876543210\n12\n0012345678';
    const res = await postCampaign(t, h.u1.token, { creditType: NORMAL, message: 'File' }, [
      { ...file('to', Buffer.from(text, 'utf8'), 'to.txt'), type: 'text/plain' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<CreateCampaignReply>().campaign._id;
    const detail = await t.request({
      method: 'GET',
      url: `/api/campaigns/${id}`,
      token: h.u1.token,
    });
    // '+1 (555) 123-4567' is one number: its pieces join (docs/product.md, How numbers are read).
    expect(detail.json<{ recipients: string[] }>().recipients).toEqual([
      '0012345678',
      '15551234567',
      '9876543210',
    ]);
  });

  it('rolls the COPY back when the debit fails after it: no recipient rows', async () => {
    const poor = await t.createUser(h.admin, { role: 'User' });
    await fund(t, h.admin, poor.user.email, NORMAL, 1_000);
    const before = { rows: await campaignRows(t), entries: await countEntries(t.db) };
    const to = Array.from({ length: 50_000 }, (_, i) => String(5_550_000_000 + i)).join(',');
    const res = await postCampaign(t, poor.token, { creditType: NORMAL, message: 'Hi', to });
    expect([res.statusCode, message(res)]).toEqual([409, msg.insufficientCredits]);
    expect(await campaignRows(t)).toEqual(before.rows);
    expect(await countEntries(t.db)).toBe(before.entries);
    expect(await balanceOf(t.db, poor.user.id, NORMAL)).toBe(1_000);
  });

  it('a failing COPY source aborts the transaction and leaves the connection usable', async () => {
    const before = await campaignRows(t);
    const failing = function* () {
      yield Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
      throw new Error('source broke');
    };
    await expect(
      t.db.transaction().execute(async (tx) => {
        await tx
          .insertInto('campaigns')
          .values({
            user_id: h.u1.user.id,
            created_by: h.u1.user.id,
            credit_type: NORMAL,
            message: 'x',
            recipient_count: 1,
            charged_count: 1,
          })
          .execute();
        await copyIn(
          tx,
          'COPY campaign_recipients (campaign_id, phone) FROM STDIN (FORMAT binary)',
          failing(),
        );
      }),
    ).rejects.toThrow('source broke');
    expect(await campaignRows(t)).toEqual(before);
    // Every pooled connection still answers (none was left mid-COPY).
    const pings = await Promise.all(
      Array.from({ length: 12 }, () => sql<{ one: number }>`SELECT 1 AS one`.execute(t.db)),
    );
    expect(pings.map((p) => p.rows[0]?.one)).toEqual(Array(12).fill(1));
  });

  it('a COPY the server refuses (duplicate key) fails cleanly', async () => {
    const before = await campaignRows(t);
    const copy = (id: string, keys: Float64Array) =>
      t.db
        .transaction()
        .execute((tx) =>
          copyIn(
            tx,
            'COPY campaign_recipients (campaign_id, phone) FROM STDIN (FORMAT binary)',
            recipientCopyChunks(id, keys),
          ),
        );
    // The same key many times over: the primary key refuses it while rows still stream in.
    const dupes = new Float64Array(100_000).fill(scanRecipients('5551234567').keys[0] as number);
    const { rows } = await sql<{ id: string }>`SELECT id FROM campaigns LIMIT 1`.execute(t.db);
    await expect(copy(rows[0]?.id as string, dupes)).rejects.toThrow(/duplicate key/);
    expect(await campaignRows(t)).toEqual(before);
    const pings = await Promise.all(
      Array.from({ length: 12 }, () => sql<{ one: number }>`SELECT 1 AS one`.execute(t.db)),
    );
    expect(pings.map((p) => p.rows[0]?.one)).toEqual(Array(12).fill(1));
  });

  it('an Idempotency-Key covers the recipient set: same set replays, another one is refused', async () => {
    const fields = (to: string) => ({ creditType: NORMAL, message: 'Keyed', to });
    const key = 'ingest-key-1';
    const first = await postCampaign(t, h.u1.token, fields('1234567,7654321'), [], key);
    expect(first.statusCode, first.body).toBe(201);
    // The same numbers in another order, with a duplicate and an invalid token: the same request.
    const again = await postCampaign(t, h.u1.token, fields('7654321\n1234567 1234567 12'), [], key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<CreateCampaignReply>().campaign._id).toBe(
      first.json<CreateCampaignReply>().campaign._id,
    );
    const other = await postCampaign(t, h.u1.token, fields('1234567,7654322'), [], key);
    expect([other.statusCode, message(other)]).toEqual([409, msg.idempotencyMismatch]);
  });

  it('refuses a second `to` and oversized text fields', async () => {
    const twice = await postCampaign(
      t,
      h.u1.token,
      { creditType: NORMAL, message: 'Hi', to: '1234567' },
      [file('to', Buffer.from('7654321'), 'to.txt')],
    );
    expect(twice.statusCode).toBe(400);
    const big = await postCampaign(t, h.u1.token, {
      creditType: NORMAL,
      message: 'Hi',
      to: '1234567',
      countryName: 'x'.repeat(8 * 1024 + 1),
    });
    expect(big.statusCode).toBe(400);
  });

  it('cuts an oversized text field while it streams and refuses NUL in text fields', async () => {
    // 1 MB of message: the parser stops holding it at 32 KB and the answer says why.
    const huge = await postCampaign(t, h.u1.token, {
      creditType: NORMAL,
      message: 'x'.repeat(1024 * 1024),
      to: '1234567',
    });
    expect(huge.statusCode).toBe(400);
    expect(message(huge)).toBe(msg.fieldTooLong);
    const nul = await postCampaign(t, h.u1.token, {
      creditType: NORMAL,
      message: 'Hi',
      to: '1234567',
      ctaCallText: 'Call\0us',
    });
    expect(nul.statusCode).toBe(400);
    expect(message(nul)).toBe(msg.textHasNul);
    // `to` alone may still be large as a plain text field (it is streamed, not buffered).
    const list = Array.from({ length: 5000 }, (_, i) => String(9_000_000_000 + i)).join(',');
    const many = await postCampaign(t, h.u1.token, { creditType: NORMAL, message: 'Hi', to: list });
    expect(many.statusCode).toBe(201);
    expect(many.json<CreateCampaignReply>().campaign.recipientCount).toBe(5000);
  });
});
