import { CreateTemplateBodySchema, type CreateTemplateBody } from '@herald/contract';
import { firstIssues, type FieldErrors } from '../../components/field-errors';

/** The template form's fields as typed. */
export interface TemplateFormValues {
  name: string;
  language: string;
  body: string;
}

export const emptyTemplateValues: TemplateFormValues = { name: '', language: '', body: '' };

/**
 * A new template, checked with the server's own schema (name, language code, body length and
 * its variables numbered {{1}} to {{n}}), so the form and POST refuse alike and say the same.
 */
export function parseTemplate(
  v: TemplateFormValues,
): { body: CreateTemplateBody; errors: null } | { body: null; errors: FieldErrors } {
  const parsed = CreateTemplateBodySchema.safeParse(v);
  if (parsed.success) return { body: parsed.data, errors: null };
  return { body: null, errors: firstIssues(parsed.error) };
}
