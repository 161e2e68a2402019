import { PassThrough, Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { server as msg, type CampaignWithFiles } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { openStoredFile } from '../../lib/file-response.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import { ZipStream } from '../../lib/zip-stream.js';
import type { Actor } from '../../policies/scope.js';
import { visibleCampaign } from './campaign-access.js';
import { recipientPage, storedFilesOf } from './campaign-actions.repo.js';
import { sanitiseName } from '../../lib/uploads.js';
import { campaignFileKey } from './campaign-files.js';
import { reportCsvChunks } from './report-export.js';
import { presentCampaign, presentFile } from './campaigns.presenter.js';

/**
 * GET /api/campaigns/{id}/download (docs/product.md, Campaigns): a zip of `campaign.json` (the
 * campaign as its detail view shows it, without the recipients), `recipients.csv` (header
 * `number`, read from the database in keyset batches as the archive asks for them), when the
 * campaign has a report `report.csv` (the report export's columns and rows, read the same way)
 * and every media file under its original name, streamed from the FileStore. Nothing is held in
 * memory beyond one batch or one file chunk. A media file the store no longer holds answers 410
 * before any byte is sent: an archive silently missing a file would pass for the whole campaign.
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
  const names = archiveNames(stored.map((f) => f.original_name));
  const media = stored.map((f, i) => ({
    name: names[i] ?? f.stored_name,
    key: campaignFileKey(f.stored_name),
  }));
  // Checked here, while the answer can still be an error; one deleted after this point cuts the
  // download short (the route logs it) rather than leaving the file out.
  const present = await Promise.all(media.map((f) => ctx.files.stat(f.key)));
  if (present.some((p) => p === null)) throw new AppError(410, msg.fileGone);
  return {
    filename: `campaign_${id}.zip`,
    write: async (out) => {
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
      for (const file of media) {
        zip.addStream(file.name, () => openLazily(ctx.files, file.key), { compressionLevel: 1 });
      }
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

/**
 * A stream of the object `key`, opened when the archive reaches it (the zip asks for its
 * inputs one at a time, and the store's open is async): bytes flow through as they arrive,
 * and when the archive gives up (the client left) the object's stream is closed with it.
 */
function openLazily(store: FileStore, key: string): Readable {
  const through = new PassThrough();
  openStoredFile(store, key).then(
    ({ stream }) => {
      if (through.destroyed) {
        stream.destroy();
        return;
      }
      // The pipeline destroys each side when the other fails or closes early.
      pipeline(stream, through).catch(() => {});
    },
    (err: unknown) => through.destroy(err instanceof Error ? err : new Error(String(err))),
  );
  return through;
}
