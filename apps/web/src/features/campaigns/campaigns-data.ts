import {
  CampaignListQuerySchema,
  isDeliveredStatus,
  type SessionUser,
  type User,
  formatCount,
} from '@herald/contract';
import type { CampaignFilterValues } from '../../api/campaigns/get-campaigns';
import type { SelectOption } from '../../components/form-field';

/**
 * The details dialog lists at most this many recipients (loaded page by page as the list
 * scrolls); past it the Download zip has them all. A campaign may hold a million numbers.
 */
export const RECIPIENTS_SHOWN_MAX = 10_000;

/** The server's own rule (From not after To) checked before asking; null when valid. */
export function campaignFiltersProblem(filters: CampaignFilterValues): string | null {
  const result = CampaignListQuerySchema.safeParse(filters);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Invalid filters.');
}

/** Whether the dialog may ask for another page of recipients: more exist and the cap allows. */
export function canLoadMoreRecipients(shown: number, hasNextPage: boolean): boolean {
  return hasNextPage && shown < RECIPIENTS_SHOWN_MAX;
}

/** The line above the recipients: how many are listed of how many there are. */
export function recipientsCaption(shown: number, total: number): string {
  if (shown >= total) return `${formatCount(total)} recipients`;
  return `Showing the first ${formatCount(shown)} of ${formatCount(total)} recipients.`;
}

/** The line under the recipients once no more will load. */
export function recipientsEndText(shown: number, total: number): string {
  return shown >= total
    ? 'End of recipients'
    : `The Download zip has all ${formatCount(total)} recipients.`;
}

/** Delivered is green, any other report status red. */
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
