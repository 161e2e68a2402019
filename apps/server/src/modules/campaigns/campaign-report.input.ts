import fs from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { MAX_REPORT_BYTES, server as msg } from '@herald/contract';
import { AppError, badRequest } from '../../lib/app-error.js';
import { stageUpload } from '../../lib/uploads.js';

/**
 * Reads POST /api/campaigns/{id}/upload-report: one file field `reportFile`, streamed to a temp
 * file (never held in memory) in this instance's staging folder, where the start-up sweep
 * removes what a crash leaves behind. The file is only read during the request (it is never
 * kept, so never goes to the FileStore); the caller deletes it when done.
 */

export const REPORT_FIELD = 'reportFile';

export interface StagedReport {
  filePath: string;
  originalName: string;
  size: number;
}

const tooLarge = () => new AppError(413, msg.reportFileTooLarge);

export function isCsvName(name: string): boolean {
  return /\.csv$/i.test(name.trim());
}

export async function readReportUpload(req: FastifyRequest, dir: string): Promise<StagedReport> {
  if (!req.isMultipart()) throw badRequest(msg.reportFileRequired);
  await fs.mkdir(dir, { recursive: true });
  let staged: StagedReport | null = null;
  const parts = req.parts({
    // One byte over, so our own check (with its message) fires first.
    limits: { fileSize: MAX_REPORT_BYTES + 1, files: 2, fields: 10, fieldSize: 1024 },
  });
  try {
    for await (const part of parts) {
      if (part.type !== 'file') continue; // other fields carry nothing we use
      if (part.fieldname !== REPORT_FIELD || staged !== null) {
        part.file.resume();
        throw badRequest();
      }
      // A browser sends an empty part without a name when no file was chosen.
      if (part.filename === '') {
        part.file.resume();
        continue;
      }
      if (!isCsvName(part.filename)) {
        part.file.resume();
        throw badRequest(msg.reportFileNotCsv);
      }
      const file = await stageUpload(dir, part.file, { maxBytes: MAX_REPORT_BYTES, tooLarge });
      staged = { filePath: file.filePath, originalName: part.filename, size: file.size };
    }
  } catch (err) {
    if (staged) await fs.rm(staged.filePath, { force: true });
    throw err;
  }
  if (!staged) throw badRequest(msg.reportFileRequired);
  return staged;
}
