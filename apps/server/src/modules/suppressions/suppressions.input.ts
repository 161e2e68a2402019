import fs from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { SUPPRESSION_IMPORT_MAX_BYTES, server as msg } from '@herald/contract';
import { AppError, badRequest } from '../../lib/app-error.js';
import { stageUpload } from '../../lib/uploads.js';

/**
 * Reads POST /api/suppressions/import: one file field `file`, a .csv, streamed to a temp file in
 * this instance's staging folder (the start-up sweep removes what a crash leaves behind) and read
 * back once whole. The file is never kept: the bytes are returned and the temp file removed.
 */

export const IMPORT_FIELD = 'file';

const tooLarge = () =>
  new AppError(413, msg.suppressionImportTooLarge(SUPPRESSION_IMPORT_MAX_BYTES / (1024 * 1024)));

export async function readImportUpload(req: FastifyRequest, dir: string): Promise<Buffer> {
  if (!req.isMultipart()) throw badRequest(msg.suppressionImportFileRequired);
  await fs.mkdir(dir, { recursive: true });
  let staged: string | null = null;
  const parts = req.parts({
    // One byte over, so our own check (with its message) fires first.
    limits: { fileSize: SUPPRESSION_IMPORT_MAX_BYTES + 1, files: 2, fields: 10, fieldSize: 1024 },
  });
  try {
    for await (const part of parts) {
      if (part.type !== 'file') continue; // other fields carry nothing we use
      if (part.fieldname !== IMPORT_FIELD || staged !== null) {
        part.file.resume();
        throw badRequest();
      }
      // A browser sends an empty part without a name when no file was chosen.
      if (part.filename === '') {
        part.file.resume();
        continue;
      }
      if (!/\.csv$/i.test(part.filename.trim())) {
        part.file.resume();
        throw badRequest(msg.suppressionImportNotCsv);
      }
      const file = await stageUpload(dir, part.file, {
        maxBytes: SUPPRESSION_IMPORT_MAX_BYTES,
        tooLarge,
      });
      staged = file.filePath;
    }
    if (!staged) throw badRequest(msg.suppressionImportFileRequired);
    return await fs.readFile(staged);
  } finally {
    if (staged) await fs.rm(staged, { force: true });
  }
}
