import { expect } from 'vitest';
import type { CampaignStatus, CreateCampaignReply, CreditType } from '@herald/contract';
import type { TestApp } from '../../../test/harness.js';
import { multipart, type FilePart } from '../users/test-fixtures.js';
import { postCampaign } from './campaigns.test-fixtures.js';

/** Test-only helpers of the campaign-actions tests (status, reports, download). */

export const NORMAL: CreditType = 'Normal Message - domestic';

/** Numbers 98765432xx for xx = 0 … count−1. */
export function numbers(count: number, prefix = '98765432'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);
}

/** The name createCampaign's campaigns get: their message's first words (no name given). */
export const HELLO = { name: 'Hello' };

/** Creates a campaign as `token` and returns its id. */
export async function createCampaign(
  t: TestApp,
  token: string,
  to: string[],
  fields: Record<string, string> = {},
  files: FilePart[] = [],
): Promise<string> {
  const res = await postCampaign(
    t,
    token,
    { creditType: NORMAL, message: 'Hello', to: to.join(','), ...fields },
    files,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreateCampaignReply>().campaign._id;
}

export function putStatus(t: TestApp, token: string | undefined, id: string, status: unknown) {
  return t.request({
    method: 'PUT',
    url: `/api/campaigns/status/${id}`,
    token,
    payload: { status },
  });
}

/** Admin sets a status and expects it to work. */
export async function setStatus(t: TestApp, admin: string, id: string, status: CampaignStatus) {
  const res = await putStatus(t, admin, id, status);
  expect(res.statusCode, res.body).toBe(200);
}

export function csvFile(text: string | Buffer, filename = 'report.csv'): FilePart {
  return {
    field: 'reportFile',
    filename,
    type: 'text/csv',
    data: typeof text === 'string' ? Buffer.from(text, 'utf8') : text,
  };
}

export function postReport(
  t: TestApp,
  token: string | undefined,
  id: string,
  ...files: FilePart[]
) {
  const body = multipart({}, ...files);
  return t.request({
    method: 'POST',
    url: `/api/campaigns/${id}/upload-report`,
    token,
    payload: body.payload,
    headers: body.headers,
  });
}

/** Ledger entries of one kind for one campaign. */
export async function entriesOf(
  t: TestApp,
  id: string,
  kind: 'campaign_debit' | 'campaign_refund',
) {
  return t.db
    .selectFrom('credit_transactions')
    .select(['count', 'reason', 'type', 'to_user_id'])
    .where('campaign_id', '=', id)
    .where('kind', '=', kind)
    .execute();
}

export async function notificationsOf(t: TestApp, userId: string) {
  return t.db
    .selectFrom('notifications')
    .select(['event_type', 'message', 'link'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function campaignRow(t: TestApp, id: string) {
  return t.db
    .selectFrom('campaigns')
    .select(['status', 'charged', 'report_count'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

export const messageOf = (res: { json: <T>() => T }) => res.json<{ message: string }>().message;
