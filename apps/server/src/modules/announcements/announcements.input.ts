import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import {
  ANNOUNCEMENT_IMAGE_FIELD,
  ANNOUNCEMENT_IMAGE_MAX_BYTES,
  ANNOUNCEMENT_MAX_TARGETS,
  hasNoNul,
  server as msg,
} from '@herald/contract';
import { AppError, badRequest } from '../../lib/app-error.js';

/** POST /api/announcements as read off the wire: raw text fields and the image's bytes if any. */
export interface AnnouncementUpload {
  fields: Record<string, string>;
  image: Buffer | null;
}

/** Room for the longest field (the comma-joined target emails) in UTF-8. */
const MAX_FIELD_BYTES = ANNOUNCEMENT_MAX_TARGETS * 256 + 1024;

const tooLarge = () =>
  new AppError(413, msg.announcementImageTooLarge(ANNOUNCEMENT_IMAGE_MAX_BYTES / (1024 * 1024)));

/**
 * Reads the multipart form: the text fields as sent and at most one `image` file, held in
 * memory (at most 3 MB; busboy stops reading one byte past it, so the limit answers 413).
 */
export async function readAnnouncementUpload(req: FastifyRequest): Promise<AnnouncementUpload> {
  if (!req.isMultipart()) throw badRequest();
  const fields: Record<string, string> = {};
  let image: Buffer | null = null;
  const parts = req.parts({
    limits: {
      fileSize: ANNOUNCEMENT_IMAGE_MAX_BYTES + 1,
      files: 1,
      fieldSize: MAX_FIELD_BYTES,
      fields: 10,
    },
  });
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== ANNOUNCEMENT_IMAGE_FIELD) {
        part.file.resume();
        throw badRequest();
      }
      const data = await readImage(part);
      // A browser sends an empty file part when no file was chosen.
      if (data.length > 0) image = data;
      continue;
    }
    if (typeof part.value !== 'string') throw badRequest();
    if (part.valueTruncated) throw badRequest(msg.fieldTooLong);
    if (!hasNoNul(part.value)) throw badRequest(msg.textHasNul);
    // A repeated field is ambiguous: refuse it rather than guess which one counts.
    if (Object.hasOwn(fields, part.fieldname)) throw badRequest();
    fields[part.fieldname] = part.value;
  }
  return { fields, image };
}

async function readImage(part: MultipartFile): Promise<Buffer> {
  let data: Buffer;
  try {
    data = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw err;
  }
  if (data.length > ANNOUNCEMENT_IMAGE_MAX_BYTES || part.file.truncated) throw tooLarge();
  return data;
}
