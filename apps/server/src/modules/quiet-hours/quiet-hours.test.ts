import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  QUIET_HOURS_DEFAULT,
  quietHoursMessages as qm,
  type QuietHours,
  type QuietHoursReply,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { auditRows, lastAuditId, onlyAuditRow } from '../audit/audit.test-fixtures.js';
import { effectiveQuietMinutes } from './quiet-hours.service.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const URL = '/api/settings/quiet-hours';

async function get(token: string): Promise<QuietHours> {
  const res = await t.request({ method: 'GET', url: URL, token });
  expect(res.statusCode).toBe(200);
  return res.json<QuietHours>();
}

const put = (token: string, payload: unknown) =>
  t.request({ method: 'PUT', url: URL, token, payload: payload as Record<string, unknown> });

describe('quiet hours settings', () => {
  it('the Admin default is 21:00-08:00 for everyone without a window of their own', async () => {
    expect(QUIET_HOURS_DEFAULT).toEqual({ start: '21:00', end: '08:00' });
    expect(await get(h.admin)).toEqual({
      own: null,
      effective: QUIET_HOURS_DEFAULT,
      canInherit: false,
    });
    expect(await get(h.u1.token)).toEqual({
      own: null,
      effective: QUIET_HOURS_DEFAULT,
      canInherit: true,
    });
  });

  it('a Reseller’s own window holds for its subtree, the Admin’s for the rest', async () => {
    const saved = await put(h.r1.token, { start: '22:30', end: '07:15' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<QuietHoursReply>()).toMatchObject({
      message: qm.saved,
      own: { start: '22:30', end: '07:15' },
      effective: { start: '22:30', end: '07:15' },
    });
    const admin = await put(h.admin, { start: '20:00', end: '09:00' });
    expect(admin.statusCode).toBe(200);
    // R1 → S1 → U1 and R1 → U2 get R1's; R2 → U3 gets the Admin's.
    for (const m of [h.s1, h.u1, h.u2]) {
      expect((await get(m.token)).effective).toEqual({ start: '22:30', end: '07:15' });
    }
    expect((await get(h.u3.token)).effective).toEqual({ start: '20:00', end: '09:00' });
    expect(await effectiveQuietMinutes(t.db, h.u1.user.id)).toEqual({ start: 1350, end: 435 });
    // A Sub-Reseller's own is nearer than its Reseller's.
    expect((await put(h.s1.token, { start: '12:00', end: '13:00' })).statusCode).toBe(200);
    expect((await get(h.u1.token)).effective).toEqual({ start: '12:00', end: '13:00' });
    expect((await get(h.u2.token)).effective).toEqual({ start: '22:30', end: '07:15' });
    // Removing one's own window gives back the inherited one.
    const removed = await put(h.s1.token, { start: null, end: null });
    expect(removed.json<QuietHoursReply>()).toMatchObject({
      message: qm.inherited,
      own: null,
      effective: { start: '22:30', end: '07:15' },
    });
    expect((await get(h.u1.token)).effective).toEqual({ start: '22:30', end: '07:15' });
    await put(h.admin, QUIET_HOURS_DEFAULT);
  });

  it('refuses bad windows with their messages, a User’s change, and the Admin’s removal', async () => {
    const cases: [unknown, string][] = [
      [{ start: '24:00', end: '08:00' }, qm.timeInvalid],
      [{ start: '9:00', end: '08:00' }, qm.timeInvalid],
      [{ start: '21:00', end: '21:00' }, qm.sameTimes],
      [{ start: '21:00', end: null }, qm.bothOrNeither],
    ];
    for (const [body, message] of cases) {
      const res = await put(h.r2.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    const admin = await put(h.admin, { start: null, end: null });
    expect(admin.statusCode).toBe(400);
    expect(admin.json()).toEqual({ message: qm.adminCannotInherit });
    expect((await put(h.u3.token, { start: '21:00', end: '08:00' })).statusCode).toBe(403);
    expect((await get(h.r2.token)).own).toBeNull();
  });

  it('writes one audit entry per change, none for a refused or unchanged save', async () => {
    const since = await lastAuditId(t.db);
    expect((await put(h.r2.token, { start: '22:00', end: '06:00' })).statusCode).toBe(200);
    const entry = await onlyAuditRow(t.db, { action: 'quiet_hours.update', since });
    expect(entry).toMatchObject({
      actor_user_id: h.r2.user.id,
      target_type: 'settings',
      target_id: h.r2.user.id,
      subject_user_id: h.r2.user.id,
      changes: { quietHours: { before: null, after: '22:00-06:00' } },
    });
    // The same window again, a bad one, and the Admin's removal change nothing.
    await put(h.r2.token, { start: '22:00', end: '06:00' });
    await put(h.r2.token, { start: '22:00', end: '22:00' });
    await put(h.admin, { start: null, end: null });
    await put(h.r2.token, { start: null, end: null });
    const after = await auditRows(t.db, { action: 'quiet_hours.update', since });
    expect(after.map((e) => e.changes)).toEqual([
      { quietHours: { before: null, after: '22:00-06:00' } },
      { quietHours: { before: '22:00-06:00', after: null } },
    ]);
  });
});
