import fs from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { FILE_LIMITS, MAX_CAMPAIGN_IMAGES, MAX_RECIPIENTS, server as msg } from '@herald/contract';
import { badRequest } from '../../lib/app-error.js';
import { discardFiles, FILE_FIELDS, stageFile, type StagedFile } from './campaign-files.js';

/** POST /api/campaigns as read off the wire: raw text fields and the staged files. */
export interface CampaignUpload {
  fields: Record<string, string>;
  files: StagedFile[];
}

const MAX_FILE_BYTES = Math.max(...Object.values(FILE_LIMITS));
/** dp + singleCreative + 3 images + video + pdf + audio. */
const MAX_FILES = 5 + MAX_CAMPAIGN_IMAGES;
/** Room for MAX_RECIPIENTS numbers of up to 15 digits and a separator each. */
const MAX_FIELD_BYTES = MAX_RECIPIENTS * 16 + 1024;

/**
 * Reads the multipart form, streaming each file to a temp file as it arrives. On any failure
 * every file this request wrote is deleted before the error goes on.
 */
export async function readCampaignUpload(
  req: FastifyRequest,
  dir: string,
): Promise<CampaignUpload> {
  if (!req.isMultipart()) throw badRequest();
  await fs.mkdir(dir, { recursive: true });
  const fields: Record<string, string> = {};
  const files: StagedFile[] = [];
  const parts = req.parts({
    // One byte over the largest kind's limit, so our own check (with its message) fires first.
    limits: {
      fileSize: MAX_FILE_BYTES + 1,
      files: MAX_FILES,
      fieldSize: MAX_FIELD_BYTES,
      fields: 20,
    },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        const kind = FILE_FIELDS[part.fieldname];
        if (!kind || !Object.hasOwn(FILE_FIELDS, part.fieldname)) {
          part.file.resume();
          throw badRequest();
        }
        const same = files.filter((f) => f.field === part.fieldname).length;
        if (kind === 'image' && same >= MAX_CAMPAIGN_IMAGES) {
          part.file.resume();
          throw badRequest(msg.campaignTooManyImages);
        }
        if (kind !== 'image' && same > 0) {
          part.file.resume();
          throw badRequest(msg.campaignDuplicateFile(part.fieldname));
        }
        const staged = await stageFile(dir, part.fieldname, kind, part.filename, part.file);
        // A browser sends an empty file part when no file was chosen.
        if (staged.size === 0) await discardFiles([staged]);
        else files.push(staged);
        continue;
      }
      if (typeof part.value !== 'string' || part.valueTruncated) throw badRequest();
      // A repeated field is ambiguous: refuse it rather than guess which one counts.
      if (Object.hasOwn(fields, part.fieldname)) throw badRequest();
      fields[part.fieldname] = part.value;
    }
  } catch (err) {
    await discardFiles(files);
    throw err;
  }
  return { fields, files };
}
