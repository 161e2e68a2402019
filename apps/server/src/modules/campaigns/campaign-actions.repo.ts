import { sql } from 'kysely';
import {
  DELIVERED_REPORT_STATUSES,
  READ_REPORT_STATUS,
  type CampaignStatus,
  type ReportFilter,
  type ReportEntry,
  type ReportSummary,
} from '@herald/contract';
import type { DbOrTx, Tx } from '../../db/database.js';
import type { CampaignsTable } from '../../db/schema.js';
import { copyIn } from '../../db/copy.js';

/**
 * Queries behind the campaign actions (status, delivery report, download). Reads that the
 * create path also uses stay in campaigns.repo.ts; this file only adds to them.
 */

/** The campaign fields a status change or a report upload decides on, with its row lock. */
export interface LockedCampaign {
  id: string;
  user_id: string;
  owner_ancestors: string[];
  name: string;
  credit_type: CampaignsTable['credit_type'];
  status: CampaignStatus;
  charged: boolean;
  charged_count: number;
}

/**
 * Loads and row-locks a campaign (SELECT … FOR UPDATE OF campaigns) for the rest of the
 * transaction: a second status change or upload of the same campaign waits here, then reads
 * the committed result, so a refund or re-debit can never run twice.
 */
export function lockCampaign(tx: Tx, id: string): Promise<LockedCampaign | undefined> {
  return tx
    .selectFrom('campaigns')
    .innerJoin('users', 'users.id', 'campaigns.user_id')
    .select([
      'campaigns.id',
      'campaigns.user_id',
      'users.ancestors as owner_ancestors',
      'campaigns.name',
      'campaigns.credit_type',
      'campaigns.status',
      'campaigns.charged',
      'campaigns.charged_count',
    ])
    .where('campaigns.id', '=', id)
    .forUpdate('campaigns')
    .executeTakeFirst();
}

export async function updateCampaign(
  tx: Tx,
  id: string,
  values: {
    status?: CampaignStatus;
    charged?: boolean;
    report_count?: number;
    report_delivered?: number;
    rejection_reason?: string | null;
  },
): Promise<void> {
  await tx.updateTable('campaigns').set(values).where('id', '=', id).execute();
}

/** Totals of a campaign's report; delivered means "delivered" or "read", any case, trimmed. */
export async function reportSummary(db: DbOrTx, campaignId: string): Promise<ReportSummary> {
  const delivered = [...DELIVERED_REPORT_STATUSES];
  const { rows } = await sql<{ total: number; delivered: number }>`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE lower(trim(status)) = ANY(${delivered}::text[]))::int AS delivered
      FROM campaign_report_entries WHERE campaign_id = ${campaignId}::uuid`.execute(db);
  const total = rows[0]?.total ?? 0;
  const count = rows[0]?.delivered ?? 0;
  return { total, delivered: count, failed: total - count };
}

/** Which report rows a page or an export holds (schemas/campaign-report-view.ts). */
export interface ReportRowFilter {
  status: ReportFilter;
  /** Digits the number must contain. */
  q?: string | undefined;
}

/**
 * The SQL twin of matchesReportFilter (report-filters.ts) on the row's status, so a page holds
 * exactly the rows the contract's rule keeps.
 */
function statusCondition(status: ReportFilter) {
  const delivered = sql`lower(trim(e.status)) = ANY(${[...DELIVERED_REPORT_STATUSES]}::text[])`;
  const read = sql`lower(trim(e.status)) = ${READ_REPORT_STATUS}`;
  switch (status) {
    case 'all':
      return sql`true`;
    case 'delivered':
      return delivered;
    case 'read':
      return read;
    case 'failed':
      return sql`NOT (${delivered})`;
    case 'not_read':
      return sql`NOT (${read})`;
  }
}

/**
 * The number contains the digits. Written `<> 0` on purpose: the planner has no statistics for
 * it and guesses more hits for `<> 0` than for `> 0` (with `> 0` it read the whole campaign of
 * a 250,000-row report to sort it), enough that walking the primary key until a page is full
 * is its cheaper plan.
 */
function searchCondition(q: string) {
  return sql`strpos(phone, ${q}) <> 0`;
}

interface ReportEntryRow {
  recipient: string;
  status: string;
  reason: string | null;
  changed_at: Date | null;
}

/**
 * Report entries in number order after `after` within `filter`, each with the delivery
 * engine's reason and last state change for its recipient (LEFT JOIN: an uploaded report's
 * number may have none). A page is a walk of the entries' primary key (campaign_id, phone)
 * from the cursor, the filter checked on the way, then one primary-key probe of
 * campaign_recipients per row of the page (campaign-report-scale.test.ts checks the plan). A
 * search with few hits walks far to fill a page; a status group the statistics know to be rare
 * (Read in a report without receipts) may instead be read whole and top-N sorted, which the
 * planner picks only because it is cheaper.
 */
export function reportEntriesQuery(
  campaignId: string,
  after: string | undefined,
  limit: number,
  filter: ReportRowFilter = { status: 'all' },
) {
  const delivered = [...DELIVERED_REPORT_STATUSES];
  return sql<ReportEntryRow>`
    SELECT e.phone AS recipient, e.status,
           CASE WHEN lower(trim(e.status)) = ANY(${delivered}::text[]) THEN NULL
                ELSE nullif(concat_ws(': ', nullif(r.error_code, ''), nullif(r.error_text, '')), '')
           END AS reason,
           r.state_at AS changed_at
      FROM (SELECT campaign_id, phone, status FROM campaign_report_entries e
             WHERE campaign_id = ${campaignId}::uuid
               AND ${after === undefined ? sql`true` : sql`phone > ${after}`}
               AND ${statusCondition(filter.status)}
               AND ${filter.q ? searchCondition(filter.q) : sql`true`}
             ORDER BY phone
             LIMIT ${limit}) e
      LEFT JOIN campaign_recipients r ON r.campaign_id = e.campaign_id AND r.phone = e.phone
     ORDER BY e.phone`;
}

export async function reportEntries(
  db: DbOrTx,
  campaignId: string,
  after: string | undefined,
  limit: number,
  filter: ReportRowFilter = { status: 'all' },
): Promise<ReportEntry[]> {
  const { rows } = await reportEntriesQuery(campaignId, after, limit, filter).execute(db);
  return rows.map((r) => ({
    recipient: r.recipient,
    status: r.status,
    reason: r.reason,
    changedAt: r.changed_at ? r.changed_at.toISOString() : null,
  }));
}

/** Recipient numbers in number order after `after` (keyset on the primary key). */
export async function recipientPage(
  db: DbOrTx,
  campaignId: string,
  after: string | undefined,
  limit: number,
): Promise<string[]> {
  let q = db
    .selectFrom('campaign_recipients')
    .select('phone')
    .where('campaign_id', '=', campaignId);
  if (after !== undefined) q = q.where('phone', '>', after);
  const rows = await q.orderBy('phone').limit(limit).execute();
  return rows.map((r) => r.phone);
}

/** The media files with the names they are stored under in the FileStore. */
export function storedFilesOf(db: DbOrTx, campaignId: string) {
  return db
    .selectFrom('campaign_files')
    .select(['id', 'kind', 'stored_name', 'original_name', 'mime', 'size'])
    .where('campaign_id', '=', campaignId)
    .orderBy('kind')
    .orderBy('position')
    .execute();
}

/* ---- Report upload: rows are staged in a temp table, then matched in SQL. ---- */

/**
 * A temp table for this transaction's upload; dropped at commit or rollback. A million-row
 * report takes seconds, not milliseconds: this transaction alone gets a longer statement
 * timeout and enough sort and hash memory to keep the rows off the disk.
 */
export async function createUploadTable(tx: Tx): Promise<void> {
  await sql`SET LOCAL statement_timeout = '300s'`.execute(tx);
  await sql`SET LOCAL work_mem = '128MB'`.execute(tx);
  await sql`CREATE TEMP TABLE report_upload (
      seq integer NOT NULL, phone text, raw text, status text NOT NULL
    ) ON COMMIT DROP`.execute(tx);
}

/**
 * Streams rows into the temp table with one COPY (text format: tab-separated, `\N` for null,
 * see `copyRow`), on the transaction's own connection. Returns the rows copied.
 */
export function copyUploadRows(tx: Tx, chunks: AsyncIterable<Uint8Array>): Promise<number> {
  return copyIn(tx, 'COPY report_upload (seq, phone, raw, status) FROM STDIN', chunks);
}

const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
};
const copyValue = (v: string | null) =>
  v === null ? '\\N' : v.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c] ?? c);

/** One line of `copyUploadRows`' data. */
export function copyRow(seq: number, phone: string | null, raw: string | null, status: string) {
  return `${seq}\t${copyValue(phone)}\t${copyValue(raw)}\t${copyValue(status)}\n`;
}

export interface ReplacedReport {
  /** Entries written: distinct recipient numbers of the upload. */
  written: number;
  /** Staged rows whose number is not a recipient (or not a number at all). */
  unknownCount: number;
  /** The first `listed` distinct unknown numbers, in file order. */
  unknownNumbers: string[];
}

/**
 * Replaces the campaign's report with the staged rows whose number is one of its recipients
 * (a number listed twice keeps its last row) and sorts out the rest, in one statement: the
 * staged rows are joined to the recipients once.
 */
export async function replaceReport(
  tx: Tx,
  campaignId: string,
  listed: number,
): Promise<ReplacedReport> {
  await tx.deleteFrom('campaign_report_entries').where('campaign_id', '=', campaignId).execute();
  // A temp table has no statistics until analysed: without them the planner guesses badly.
  await sql`ANALYZE report_upload`.execute(tx);
  const { rows } = await sql<{ written: number; unknown: number; numbers: string[] | null }>`
    WITH matched AS MATERIALIZED (
      SELECT u.seq, u.phone, u.raw, u.status, r.phone IS NOT NULL AS known
        FROM report_upload u
        LEFT JOIN campaign_recipients r
          ON r.campaign_id = ${campaignId}::uuid AND r.phone = u.phone
    ), written AS (
      INSERT INTO campaign_report_entries (campaign_id, phone, status)
      SELECT DISTINCT ON (phone) ${campaignId}::uuid, phone, status
        FROM matched WHERE known ORDER BY phone, seq DESC
      RETURNING 1
    ), firsts AS (
      SELECT DISTINCT ON (number) number, seq
        FROM (SELECT coalesce(phone, raw) AS number, seq FROM matched WHERE NOT known) x
       ORDER BY number, seq
    )
    SELECT (SELECT count(*) FROM written)::int AS written,
           (SELECT count(*) FROM matched WHERE NOT known)::int AS unknown,
           (SELECT array_agg(number ORDER BY seq)
              FROM (SELECT number, seq FROM firsts ORDER BY seq LIMIT ${listed}) f) AS numbers
  `.execute(tx);
  const row = rows[0];
  return {
    written: row?.written ?? 0,
    unknownCount: row?.unknown ?? 0,
    unknownNumbers: row?.numbers ?? [],
  };
}
