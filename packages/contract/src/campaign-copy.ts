import { z } from 'zod';
import { CAMPAIGN_NAME_MAX } from './schemas/campaigns.js';
import type { ReportFilter } from './report-filters.js';
import { formatCount } from './format-count.js';

/**
 * Clone, Resend to failed and Resend to not read (docs/product.md, Campaigns, "Clone and
 * resend"): a campaign's numbers as CSV, `GET /api/campaigns/{id}/numbers?which=…`, and the
 * create form filled from the campaign. The groups are the report's own (report-filters.ts):
 * `failed` is every report row not counted delivered, `not_read` every row not Read.
 */
export const CAMPAIGN_NUMBER_GROUPS = [
  'all',
  'failed',
  'not_read',
] as const satisfies readonly ReportFilter[];
export type CampaignNumberGroup = (typeof CAMPAIGN_NUMBER_GROUPS)[number];

export const CampaignNumbersQuerySchema = z.object({
  which: z
    .enum(CAMPAIGN_NUMBER_GROUPS, 'Choose which numbers: all, failed or not_read.')
    .default('all'),
});
export type CampaignNumbersQuery = z.input<typeof CampaignNumbersQuerySchema>;

/** The CSV's one column (header line, then one number a line, in number order). */
export const CAMPAIGN_NUMBERS_HEADER = 'number';

/** The API path of a campaign's numbers (without the `which` query). */
export const campaignNumbersPath = (id: string) =>
  `/api/campaigns/${encodeURIComponent(id)}/numbers`;

/** How the form is filled: every number (Clone) or one group of the report (Resend). */
export type CampaignCopyKind = CampaignNumberGroup;

const NAME_SUFFIX: Record<CampaignCopyKind, string> = {
  all: ' (copy)',
  failed: ' (resend)',
  not_read: ' (resend)',
};

/**
 * The copy's name: the campaign's name with " (copy)" or " (resend)", the name cut (never
 * inside a character) so the whole stays within CAMPAIGN_NAME_MAX.
 */
export function copyCampaignName(name: string, kind: CampaignCopyKind): string {
  const suffix = NAME_SUFFIX[kind];
  const chars = [...name.trim()];
  let length = chars.reduce((n, c) => n + c.length, 0);
  while (chars.length > 0 && length + suffix.length > CAMPAIGN_NAME_MAX) {
    length -= (chars.pop() ?? '').length;
  }
  return `${chars.join('').trimEnd()}${suffix}`;
}

const GROUP_NAMES: Record<CampaignCopyKind, string> = {
  all: 'Numbers',
  failed: 'Failed numbers',
  not_read: 'Not-read numbers',
};

/** The name of the numbers file the form lists: "Failed numbers of Diwali offer.csv". */
export function copyNumbersFileName(campaignName: string, kind: CampaignCopyKind): string {
  const safe = campaignName.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').trim();
  return `${GROUP_NAMES[kind]} of ${safe}.csv`;
}

/** What the API answers (`{ message }`) for the numbers route. */
export const campaignCopyServer = {
  noReport: 'This campaign has no delivery report yet, so there is nothing to resend.',
};

/** The web app's texts of the three actions and the filled form. */
export const campaignCopyUi = {
  actionLabels: {
    all: 'Clone',
    failed: 'Resend to failed',
    not_read: 'Resend to not read',
  } satisfies Record<CampaignCopyKind, string>,
  replaceTitle: 'Replace the form?',
  replaceText: (name: string) =>
    `The Create Campaign form holds something already. Replace it with a copy of '${name}'?`,
  replaceConfirm: 'Replace',
  copying: (name: string) => `Copying '${name}'…`,
  copied: (name: string) => `Copied from '${name}'`,
  copiedParts: (parts: readonly string[]) => `${parts.join(', ')}. Check and edit before creating.`,
  partType: (type: string) => `credit type (${type})`,
  partName: 'name',
  partMessage: 'message',
  partTemplate: (name: string) => `template (${name}) with its values`,
  partButtons: 'buttons',
  partCountry: 'country',
  partFiles: (count: number) => `${count} media ${count === 1 ? 'file' : 'files'}`,
  partNumbers: (kind: CampaignCopyKind, count: number) => {
    const n = formatCount(count);
    if (kind === 'failed') return `${n} failed ${count === 1 ? 'number' : 'numbers'}`;
    if (kind === 'not_read') return `${n} not-read ${count === 1 ? 'number' : 'numbers'}`;
    return `${n} ${count === 1 ? 'number' : 'numbers'}`;
  },
  noRecipients: 'No recipients to resend to.',
  failed: '❌ Could not copy the campaign.',
};
