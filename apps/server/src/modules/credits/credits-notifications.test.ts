import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { NORMAL, creditBody, postCredit } from './credits.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const notes = (userId: string) =>
  t.db
    .selectFrom('notifications')
    .select(['event_type', 'message', 'link'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

describe('POST /api/credits notifies the account that moved', () => {
  it('mint, transfer and take-back each notify the target once; the mover is not notified', async () => {
    const mint = await postCredit(t, h.admin, creditBody(h.r1.user.email, { count: 20 }));
    expect(mint.statusCode, mint.body).toBe(201);
    const give = await postCredit(t, h.r1.token, creditBody(h.u2.user.email, { count: 7 }));
    expect(give.statusCode, give.body).toBe(201);
    const back = await postCredit(
      t,
      h.r1.token,
      creditBody(h.u2.user.email, { count: 2, type: 'Removed' }),
    );
    expect(back.statusCode, back.body).toBe(201);

    const note = (message: string) => ({ event_type: 'credits', message, link: '/history' });
    expect(await notes(h.r1.user.id)).toEqual([note(msg.notifyCreditsAdded(20, NORMAL))]);
    expect(await notes(h.u2.user.id)).toEqual([
      note(msg.notifyCreditsAdded(7, NORMAL)),
      note(msg.notifyCreditsRemoved(2, NORMAL)),
    ]);
  });

  it('a refused request or an idempotent replay writes no notification', async () => {
    const before = (await notes(h.u1.user.id)).length;
    const short = await postCredit(t, h.s1.token, creditBody(h.u1.user.email, { count: 5 }));
    expect(short.statusCode).toBe(409);
    for (let i = 0; i < 2; i++) {
      const res = await postCredit(t, h.admin, creditBody(h.u1.user.email), 'notify-key-1');
      expect(res.statusCode, res.body).toBe(201);
    }
    expect(await notes(h.u1.user.id)).toHaveLength(before + 1);
  });
});
