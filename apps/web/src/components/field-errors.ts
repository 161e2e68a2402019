import type { z } from 'zod';

/** First issue message per top-level field, as the forms show them. */
export type FieldErrors = Partial<Record<string, string>>;

export function firstIssues(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}
