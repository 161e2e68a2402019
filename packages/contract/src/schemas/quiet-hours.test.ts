import { describe, expect, it } from 'vitest';
import {
  QuietHoursBodySchema,
  quietHoursMessages as qm,
  quietMinutes,
  quietTime,
} from './quiet-hours.js';

const problem = (body: unknown) => {
  const r = QuietHoursBodySchema.safeParse(body);
  return r.success ? null : r.error.issues[0]?.message;
};

describe('quiet hours body', () => {
  it('takes a window, one wrapping midnight too, or both null to inherit', () => {
    expect(problem({ start: '21:00', end: '08:00' })).toBeNull();
    expect(problem({ start: '12:00', end: '13:30' })).toBeNull();
    expect(problem({ start: '00:00', end: '23:59' })).toBeNull();
    expect(problem({ start: null, end: null })).toBeNull();
  });

  it('says what is wrong', () => {
    expect(problem({ start: '24:00', end: '08:00' })).toBe(qm.timeInvalid);
    expect(problem({ start: '21:00', end: '8:00' })).toBe(qm.timeInvalid);
    expect(problem({ start: '21:60', end: '08:00' })).toBe(qm.timeInvalid);
    expect(problem({ start: 2100, end: '08:00' })).toBe(qm.timeInvalid);
    expect(problem({ start: '21:00', end: '21:00' })).toBe(qm.sameTimes);
    expect(problem({ start: null, end: '08:00' })).toBe(qm.bothOrNeither);
  });

  it('converts between HH:MM and minutes', () => {
    expect(quietMinutes('21:00')).toBe(1260);
    expect(quietMinutes('08:05')).toBe(485);
    expect(quietTime(485)).toBe('08:05');
    expect(quietTime(0)).toBe('00:00');
  });
});
