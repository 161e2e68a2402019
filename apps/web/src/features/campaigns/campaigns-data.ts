import {
  CampaignListQuerySchema,
  isDeliveredStatus,
  type SessionUser,
  type User,
} from '@herald/contract';
import type { CampaignFilterValues } from '../../api/campaigns/get-campaigns';
import type { SelectOption } from '../../components/form-field';

/** How many recipients the details dialog lists; the rest are counted, never rendered. */
export const RECIPIENT_PREVIEW_MAX = 1000;

/** The server's own rule (From not after To) checked before asking; null when valid. */
export function campaignFiltersProblem(filters: CampaignFilterValues): string | null {
  const result = CampaignListQuerySchema.safeParse(filters);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Invalid filters.');
}

/**
 * The first `max` recipients of the comma-joined `to`, found by scanning for commas: a
 * million-number string is never split into a million strings.
 */
export function recipientsPreview(to: string, max: number = RECIPIENT_PREVIEW_MAX): string[] {
  const out: string[] = [];
  let start = 0;
  while (out.length < max && start < to.length) {
    const comma = to.indexOf(',', start);
    const end = comma === -1 ? to.length : comma;
    const token = to.slice(start, end).trim();
    if (token) out.push(token);
    if (comma === -1) break;
    start = comma + 1;
  }
  return out;
}

/** Delivered is green, any other report status red (spec 2.9). */
export function reportStatusVariant(status: string): 'success' | 'danger' {
  return isDeliveredStatus(status) ? 'success' : 'danger';
}

/**
 * The User filter's options: the caller marked Self, then the users of its scope as
 * 'Name (email)'. A chosen email missing from the list stays selectable.
 */
export function campaignUserOptions(
  me: SessionUser,
  users: readonly User[],
  selected: string,
): SelectOption[] {
  const options: SelectOption[] = [{ value: me.email, label: `${me.name} (Self)` }];
  for (const u of users) {
    if (u.email !== me.email) options.push({ value: u.email, label: `${u.name} (${u.email})` });
  }
  if (selected && !options.some((o) => o.value === selected)) {
    options.push({ value: selected, label: selected });
  }
  return options;
}
