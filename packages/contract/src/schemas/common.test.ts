import { describe, expect, it } from 'vitest';
import { server as msg } from '../server-messages.js';
import { CampaignUserParamsSchema, CreateCampaignFieldsSchema } from './campaigns.js';
import { BigintCursorSchema, EmailSchema, optionalText, text } from './common.js';
import { CreditListQuerySchema, CreditUserParamsSchema, HistoryQuerySchema } from './credits.js';

const issues = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues.map((i) => i.message) ?? [];

describe('text', () => {
  it('refuses NUL, which PostgreSQL cannot hold in text, and keeps everything else', () => {
    expect(text().safeParse('héllo ✓ 😀').success).toBe(true);
    expect(issues(text().safeParse('a\0b'))).toEqual([msg.textHasNul]);
    expect(issues(optionalText(10, 'City').safeParse('\0'))).toEqual([msg.textHasNul]);
    expect(EmailSchema.safeParse('a\0@b.co').success).toBe(false);
  });

  it('guards the path parameters and free-text fields routes hand to the database', () => {
    expect(issues(CampaignUserParamsSchema.safeParse({ email: '\0' }))).toEqual([msg.textHasNul]);
    expect(issues(CreditUserParamsSchema.safeParse({ email: 'x\0' }))).toEqual([msg.textHasNul]);
    const fields = { creditType: 'Normal Message - domestic', message: 'Hi', to: '1234567' };
    expect(CreateCampaignFieldsSchema.safeParse(fields).success).toBe(true);
    expect(CreateCampaignFieldsSchema.safeParse({ ...fields, message: 'H\0i' }).success).toBe(
      false,
    );
    expect(CreateCampaignFieldsSchema.safeParse({ ...fields, to: '1234567\0' }).success).toBe(
      false,
    );
  });
});

describe('BigintCursorSchema', () => {
  it('takes digits within the bigint range and refuses the rest with one message', () => {
    expect(BigintCursorSchema.safeParse('0').success).toBe(true);
    expect(BigintCursorSchema.safeParse('9223372036854775807').success).toBe(true);
    for (const bad of ['9223372036854775808', '99999999999999999999', '-1', '1e3', '', '1\0']) {
      expect(issues(BigintCursorSchema.safeParse(bad)), bad).toContain(msg.invalidCursor);
    }
  });

  it('is the cursor of the credit list and of the history', () => {
    const over = { cursor: '9223372036854775808' };
    expect(issues(CreditListQuerySchema.safeParse(over))).toEqual([msg.invalidCursor]);
    expect(issues(HistoryQuerySchema.safeParse(over))).toEqual([msg.invalidCursor]);
    expect(CreditListQuerySchema.safeParse({ cursor: '9223372036854775807' }).success).toBe(true);
  });
});
