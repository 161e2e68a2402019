import fs from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import type { CampaignWithFiles } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { ZipStream } from '../../lib/zip-stream.js';
import type { Actor } from '../../policies/scope.js';
import { visibleCampaign } from './campaign-access.js';
import { recipientPage, storedFilesOf } from './campaign-actions.repo.js';
import { sanitiseName } from '../../lib/uploads.js';
import { campaignsDir } from './campaign-files.js';
import { reportCsvChunks } from './report-export.js';
import { presentCampaign, presentFile } from './campaigns.presenter.js';

/**
 * GET /api/campaigns/{id}/download (docs/product.md, Campaigns): a zip of `campaign.json` (the
 * campaign as its detail view shows it, without the recipients), `recipients.csv` (header
 * `number`, read from the database in keyset batches as the archive asks for them), when the
 * campaign has a report `report.csv` (the report export's columns and rows, read the same way)
 * and every media file under its original name. Nothing is held in memory beyond one batch or one file
 * chunk.
 */

const RECIPIENT_BATCH = 20_000;
const RESERVED = ['campaign.json', 'recipients.csv', 'report.csv'];

/**
 * Archive names for the media files: path separators and control characters made harmless,
 * and a clash (case-insensitive, with each other or the fixed files) numbered the way a
 * desktop does it: "a.png", "a (2).png", "a (3).png".
 */
export function archiveNames(names: readonly string[]): string[] {
  const taken = new Set(RESERVED);
  return names.map((original) => {
    const clean = sanitiseName(original.replace(/[\\/]/g, '_'));
    const dot = clean.lastIndexOf('.');
    const stem = dot > 0 ? clean.slice(0, dot) : clean;
    const ext = dot > 0 ? clean.slice(dot) : '';
    let name = clean;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem} (${n})${ext}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

export interface CampaignDownload {
  filename: string;
  /** Writes the archive to `out` and ends it. */
  write(out: Writable): Promise<void>;
}

/** Checks scope and gathers the files (before any byte is sent); returns the zip to stream. */
export async function prepareDownload(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<CampaignDownload> {
  const row = await visibleCampaign(ctx.db, actor, id);
  const stored = await storedFilesOf(ctx.db, id);
  const detail: CampaignWithFiles = {
    ...presentCampaign(row, actor),
    files: stored.map(presentFile),
  };
  const dir = campaignsDir(ctx.uploadsDir);
  const names = archiveNames(stored.map((f) => f.original_name));
  const media = stored.map((f, i) => ({
    name: names[i] ?? f.stored_name,
    filePath: path.join(dir, path.basename(f.stored_name)),
  }));
  return {
    filename: `campaign_${id}.zip`,
    write: async (out) => {
      // A file lost from disk is left out rather than failing the whole download.
      const present = await Promise.all(media.map((f) => fs.stat(f.filePath).catch(() => null)));
      const zip = new ZipStream(out);
      zip.addBuffer('campaign.json', `${JSON.stringify(detail, null, 2)}\n`);
      zip.addStream('recipients.csv', () =>
        Readable.from(recipientLines(ctx, id), { objectMode: false }),
      );
      if (row.report_count > 0) {
        zip.addStream('report.csv', () =>
          Readable.from(reportCsvChunks(ctx.db, id), { objectMode: false }),
        );
      }
      media.forEach((file, i) => {
        if (!present[i]) return;
        zip.addStream(file.name, () => createReadStream(file.filePath), { compressionLevel: 1 });
      });
      await zip.finish();
    },
  };
}

/** recipients.csv in keyset batches, each read only when the archive has taken the one before. */
async function* recipientLines(ctx: AppContext, id: string): AsyncGenerator<string> {
  yield 'number\r\n';
  let after: string | undefined;
  for (;;) {
    const page = await recipientPage(ctx.db, id, after, RECIPIENT_BATCH);
    if (page.length > 0) yield `${page.join('\r\n')}\r\n`;
    after = page.at(-1);
    if (page.length < RECIPIENT_BATCH || after === undefined) return;
  }
}
