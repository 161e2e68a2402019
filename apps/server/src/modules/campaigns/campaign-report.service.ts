import { createReadStream } from 'node:fs';
import {
  campaignLink,
  normalizeRecipient,
  REPORT_UNKNOWN_LISTED,
  server as msg,
  type CampaignReport,
  type CampaignReportViewQuerySchema,
  type ReportExportQuerySchema,
  type UploadReportReply,
} from '@herald/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { notify } from '../notifications/notifications.service.js';
import type { Actor } from '../../policies/scope.js';
import { lockVisibleCampaign, visibleCampaign } from './campaign-access.js';
import * as repo from './campaign-actions.repo.js';
import type { StagedReport } from './campaign-report.input.js';
import { settleCredits } from './campaign-status.service.js';
import { getCampaign } from './campaigns.repo.js';
import { presentCampaign } from './campaigns.presenter.js';
import { CsvError, csvRows, detectColumns, isBlankRow, type ReportColumns } from './report-csv.js';
import { reportCsvChunks } from './report-export.js';
import { recordAudit, type AuditActor } from '../audit/index.js';
import { campaignTarget, recordStatusMove } from './campaign-audit.js';

/**
 * Delivery reports (docs/product.md, Campaigns): upload (Admin), the paged view and the
 * CSV export (whoever sees the campaign).
 */

/** Longest status kept; a longer cell is cut (a status is a word or two). */
export const REPORT_STATUS_MAX = 100;
/** Longest unknown cell listed back as written. */
const RAW_MAX = 100;

const notCsv = () => badRequest(msg.reportFileNotCsv);

/** COPY data is handed on in pieces of about this many characters. */
const COPY_CHUNK = 256 * 1024;

/**
 * Reads the staged file as COPY data for the temp table while it streams, so memory holds one
 * piece whatever the file's size. Text must be UTF-8 (a BOM is dropped) without NUL bytes:
 * anything else (a spreadsheet, an image) is not a CSV file. `counter.rows` ends as the number
 * of data rows.
 */
async function* reportCopyData(
  filePath: string,
  counter: { rows: number },
): AsyncGenerator<Buffer> {
  let columns: ReportColumns | null = null;
  let out = '';
  try {
    for await (const cells of csvRows(createReadStream(filePath, { highWaterMark: COPY_CHUNK }))) {
      if (isBlankRow(cells)) continue;
      if (!columns) {
        columns = detectColumns(cells);
        if (columns.hasHeader) continue;
      }
      const raw = (cells[columns.number] ?? '').trim();
      const phone = normalizeRecipient(raw);
      const status = (cells[columns.status] ?? '').trim().slice(0, REPORT_STATUS_MAX);
      out += repo.copyRow(
        counter.rows++,
        phone,
        phone === null ? raw.slice(0, RAW_MAX) : null,
        status,
      );
      if (out.length >= COPY_CHUNK) {
        yield Buffer.from(out, 'utf8');
        out = '';
      }
    }
  } catch (err) {
    throw err instanceof CsvError ? notCsv() : err;
  }
  if (out.length > 0) yield Buffer.from(out, 'utf8');
}

/**
 * POST /api/campaigns/{id}/upload-report, in one transaction under the campaign's row lock:
 * the old entries go, the new ones come, the count and Report Generated are set (with the
 * money rule when the campaign was refunded), and the owner is notified.
 */
export async function uploadReport(
  ctx: AppContext,
  actor: AuthUser,
  audit: AuditActor,
  id: string,
  file: StagedReport,
): Promise<UploadReportReply> {
  return ctx.db.transaction().execute(async (tx) => {
    const campaign = await lockVisibleCampaign(tx, actor, id);
    await repo.createUploadTable(tx);
    const counter = { rows: 0 };
    await repo.copyUploadRows(tx, reportCopyData(file.filePath, counter));
    if (counter.rows === 0) throw badRequest(msg.reportFileEmpty);
    const result = await repo.replaceReport(tx, id, REPORT_UNKNOWN_LISTED);
    // A file without one number of this campaign is the wrong file: keep the report there was.
    if (result.written === 0) throw badRequest(msg.reportNoRecipients);
    const next = 'Report Generated';
    const charged = await settleCredits(tx, actor, campaign, next);
    const summary = await repo.reportSummary(tx, id);
    await repo.updateCampaign(tx, id, {
      status: next,
      charged,
      report_count: summary.total,
      report_delivered: summary.delivered,
    });
    // The upload's entry, and the status move's when the campaign was not Report Generated yet.
    await recordAudit(tx, {
      actor: audit,
      action: 'campaign.report_upload',
      target: campaignTarget(campaign),
      changes: {
        reportCount: { before: null, after: summary.total },
        reportDelivered: { before: null, after: summary.delivered },
      },
    });
    if (campaign.status !== next) {
      await recordStatusMove(tx, audit, campaign, { before: campaign.status, after: next });
    }
    await notify(tx, {
      userId: campaign.user_id,
      eventType: 'campaign_report',
      message: msg.notifyCampaignResults(campaign, {
        delivered: summary.delivered,
        total: summary.total,
        refunded: 0,
        creditType: campaign.credit_type,
      }),
      link: campaignLink(id),
    });
    const row = await getCampaign(tx, id);
    if (!row) throw new Error(`campaign ${id} vanished`);
    return {
      message: msg.reportUploaded,
      campaign: presentCampaign(row, actor),
      summary,
      unknownCount: result.unknownCount,
      unknownNumbers: result.unknownNumbers,
    };
  });
}

/** GET /api/campaigns/{id}/report: the whole report's totals and one keyset page of the filter. */
export async function getReport(
  ctx: AppContext,
  actor: Actor,
  id: string,
  q: z.output<typeof CampaignReportViewQuerySchema>,
): Promise<CampaignReport> {
  const campaign = await visibleCampaign(ctx.db, actor, id);
  const entries = await repo.reportEntries(ctx.db, id, q.cursor, q.limit + 1, {
    status: q.status,
    q: q.q,
  });
  const summary = {
    total: campaign.report_count,
    delivered: campaign.report_delivered,
    failed: campaign.report_count - campaign.report_delivered,
  };
  const page = entries.slice(0, q.limit);
  const last = page.at(-1);
  return {
    summary,
    entries: page,
    nextCursor: entries.length > q.limit && last ? last.recipient : null,
  };
}

export interface ReportExport {
  filename: string;
  /** The CSV text in chunks, read from the database in keyset batches as it is consumed. */
  chunks: () => AsyncGenerator<string>;
}

/** Checks scope (before any byte is sent) and returns the export of the filter's rows. */
export async function prepareReportExport(
  ctx: AppContext,
  actor: Actor,
  id: string,
  filter: z.output<typeof ReportExportQuerySchema>,
): Promise<ReportExport> {
  await visibleCampaign(ctx.db, actor, id);
  return {
    filename: `campaign_${id}_report.csv`,
    chunks: () => reportCsvChunks(ctx.db, id, { status: filter.status, q: filter.q }),
  };
}
