import { describe, expect, it } from 'vitest';
import { AnalyticsQuerySchema } from './analytics.js';

describe('AnalyticsQuerySchema', () => {
  it('takes 7, 30, 90 or all, and 30 when absent', () => {
    for (const range of ['7', '30', '90', 'all']) {
      expect(AnalyticsQuerySchema.parse({ range })).toEqual({ range });
    }
    expect(AnalyticsQuerySchema.parse({})).toEqual({ range: '30' });
  });

  it('refuses any other range', () => {
    for (const range of ['14', '0', '', 'ALL', '7d', '-1']) {
      expect(AnalyticsQuerySchema.safeParse({ range }).success).toBe(false);
    }
  });
});
