import { z } from 'zod';

/**
 * Quiet hours (docs/product.md, Quiet hours): a daily window, in each recipient's own local
 * time, in which nothing is sent. Times are "HH:MM" (24 hours); a window whose end is earlier
 * than its start wraps midnight (21:00-08:00: from 21:00 to 08:00 the next morning). An account
 * without its own window uses its nearest ancestor's, and finally the Admin's, whose default
 * is QUIET_HOURS_DEFAULT. The Admin's window cannot be removed, only changed.
 */

export const QUIET_HOURS_DEFAULT = { start: '21:00', end: '08:00' } as const;

export const quietHoursMessages = {
  timeInvalid: 'Enter a time as HH:MM, from 00:00 to 23:59.',
  sameTimes: 'Quiet hours must start and end at different times.',
  bothOrNeither: 'Give both a start and an end, or neither to use the inherited quiet hours.',
  adminCannotInherit: 'The Admin’s quiet hours apply to everyone without their own: set a window.',
  saved: 'Quiet hours saved.',
  inherited: 'Your own quiet hours are removed: the inherited ones apply.',
} as const;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const time = z.string({ error: quietHoursMessages.timeInvalid }).regex(HHMM, {
  error: quietHoursMessages.timeInvalid,
});

export const QuietWindowSchema = z.object({ start: time, end: time });
export type QuietWindow = z.infer<typeof QuietWindowSchema>;

/** PUT /api/settings/quiet-hours: a window of one's own, or both null to inherit. */
export const QuietHoursBodySchema = z
  .strictObject({ start: time.nullable(), end: time.nullable() })
  .refine((b) => (b.start === null) === (b.end === null), {
    error: quietHoursMessages.bothOrNeither,
  })
  .refine((b) => b.start === null || b.start !== b.end, { error: quietHoursMessages.sameTimes });
export type QuietHoursBody = z.infer<typeof QuietHoursBodySchema>;

/** GET /api/settings/quiet-hours: the caller's own window (null: inherited) and the one in force. */
export const QuietHoursSchema = z.object({
  own: QuietWindowSchema.nullable(),
  effective: QuietWindowSchema,
  /** False for the Admin, whose window is the last fallback. */
  canInherit: z.boolean(),
});
export type QuietHours = z.infer<typeof QuietHoursSchema>;

export const QuietHoursReplySchema = QuietHoursSchema.extend({ message: z.string() });
export type QuietHoursReply = z.infer<typeof QuietHoursReplySchema>;

/** "HH:MM" to minutes after midnight. */
export function quietMinutes(hhmm: string): number {
  const [h, m] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}

/** Minutes after midnight to "HH:MM". */
export function quietTime(minutes: number): string {
  const h = Math.floor(minutes / 60);
  return `${String(h).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
