import {
  CreateProviderBodySchema,
  PROVIDER_FIELDS,
  PROVIDER_LIMITS,
  UpdateProviderBodySchema,
  providerFieldsProblem,
  server as msg,
  ui,
  type CreateProviderBody,
  type Provider,
  type ProviderField,
  type ProviderKind,
  type UpdateProviderBody,
} from '@herald/contract';
import type { z } from 'zod';
import type { FieldErrors } from '../../components/field-errors';

/** The provider form as typed: every field of its kind by name, settings and secrets alike. */
export interface ProviderFormValues {
  kind: ProviderKind | '';
  name: string;
  fields: Record<string, string>;
}

/** The error key of one of the kind's fields (apart from `kind` and `name`). */
export const fieldKey = (name: string) => `fields.${name}`;
/** A problem that names no field of the form. */
export const FORM_ERROR = 'form';

function defaults(kind: ProviderKind | ''): Record<string, string> {
  if (kind === '') return {};
  return Object.fromEntries(PROVIDER_FIELDS[kind].map((f) => [f.name, f.default ?? '']));
}

/** A new provider's form: the kind's defaults filled in. */
export function newProviderValues(kind: ProviderKind | '' = ''): ProviderFormValues {
  return { kind, name: '', fields: defaults(kind) };
}

/** Another kind chosen on a new provider: its own fields and defaults, the name kept. */
export function withKind(v: ProviderFormValues, kind: ProviderKind | ''): ProviderFormValues {
  return { ...v, kind, fields: defaults(kind) };
}

/** An edit's form: the saved settings; secrets empty (leaving one empty keeps it). */
export function providerFormValues(p: Provider): ProviderFormValues {
  const fields = Object.fromEntries(
    PROVIDER_FIELDS[p.kind].map((f) => [f.name, f.secret ? '' : (p.settings[f.name] ?? '')]),
  );
  return { kind: p.kind, name: p.name, fields };
}

/** What an edit's secret field says under it: that a value is saved and how it ends. */
export function secretHint(f: ProviderField, saved: Provider | null): string | undefined {
  if (!saved || !f.secret) return f.hint;
  const last4 = saved.secrets[f.name];
  if (last4 === undefined) return f.hint;
  const kept = last4 ? ui.providers.secretSaved(last4) : ui.providers.secretSavedNoHint;
  return f.hint ? `${f.hint} ${kept}` : kept;
}

/** The field a message of `providerFieldsProblem` is about (its messages name the field's label). */
export function problemField(kind: ProviderKind, problem: string): string | null {
  for (const f of PROVIDER_FIELDS[kind]) {
    const own = [
      msg.providerFieldRequired(f.label),
      msg.providerFieldTooLong(f.label, PROVIDER_LIMITS.settingMax),
      msg.providerUrlInvalid(f.label),
      ...(f.name === 'domesticCountryCode' ? [msg.providerCountryCodeInvalid] : []),
    ];
    if (own.includes(problem)) return f.name;
  }
  return null;
}

/** Settings and secrets apart; empty secrets left out (on an edit: keep the saved one). */
function split(kind: ProviderKind, fields: Record<string, string>, keepEmptySettings: boolean) {
  const settings: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  for (const f of PROVIDER_FIELDS[kind]) {
    const value = (fields[f.name] ?? '').trim();
    if (f.secret) {
      if (value !== '') secrets[f.name] = value;
    } else if (value !== '' || keepEmptySettings) settings[f.name] = value;
  }
  return { settings, secrets };
}

/** The schema's issues by field: `name`, `kind`, and `fields.<name>` for settings and secrets. */
function issuesOf(error: z.ZodError | undefined, errors: FieldErrors) {
  const found = new Set(Object.values(errors));
  for (const issue of error?.issues ?? []) {
    // The schema's own run of the fields rule (no path) is already on its field.
    if (issue.path.length === 0 && found.has(issue.message)) continue;
    const [top, sub] = issue.path.map(String);
    const key =
      (top === 'settings' || top === 'secrets') && sub ? fieldKey(sub) : (top ?? FORM_ERROR);
    errors[key] ??= issue.message;
  }
}

/** The fields' rule of the contract (one problem at a time), put on the field it names. */
function fieldsProblem(
  kind: ProviderKind,
  parts: { settings: Record<string, string>; secrets: Record<string, string> },
  creating: boolean,
  errors: FieldErrors,
) {
  const problem = providerFieldsProblem(kind, parts.settings, parts.secrets, { creating });
  if (!problem) return;
  const field = problemField(kind, problem);
  errors[field ? fieldKey(field) : FORM_ERROR] ??= problem;
}

type Parsed<B> = { body: B; errors: null } | { body: null; errors: FieldErrors };

/** A new provider, checked with the server's own schema and fields rule. */
export function parseNewProvider(v: ProviderFormValues): Parsed<CreateProviderBody> {
  const errors: FieldErrors = {};
  const parts = v.kind === '' ? { settings: {}, secrets: {} } : split(v.kind, v.fields, false);
  const parsed = CreateProviderBodySchema.safeParse({ kind: v.kind, name: v.name, ...parts });
  if (v.kind !== '') fieldsProblem(v.kind, parts, true, errors);
  issuesOf(parsed.error, errors);
  if (parsed.success && Object.keys(errors).length === 0)
    return { body: parsed.data, errors: null };
  return { body: null, errors };
}

/** An edit of a saved provider: its kind is kept, empty secrets keep the saved ones. */
export function parseProviderEdit(
  v: ProviderFormValues,
  saved: Provider,
): Parsed<UpdateProviderBody> {
  const errors: FieldErrors = {};
  const parts = split(saved.kind, v.fields, true);
  const parsed = UpdateProviderBodySchema.safeParse({
    name: v.name,
    enabled: saved.enabled,
    ...parts,
  });
  fieldsProblem(saved.kind, parts, false, errors);
  issuesOf(parsed.error, errors);
  if (parsed.success && Object.keys(errors).length === 0)
    return { body: parsed.data, errors: null };
  return { body: null, errors };
}

/** Enabling or disabling a provider: the same PUT with everything else as saved. */
export function toggleBody(p: Provider): UpdateProviderBody {
  const settings = Object.fromEntries(
    PROVIDER_FIELDS[p.kind].filter((f) => !f.secret).map((f) => [f.name, p.settings[f.name] ?? '']),
  );
  return { name: p.name, enabled: !p.enabled, settings, secrets: {} };
}
