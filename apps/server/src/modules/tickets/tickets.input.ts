import fs from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import {
  TICKET_ATTACHMENT_MAX_BYTES,
  TICKET_ATTACHMENTS_FIELD,
  TICKET_MAX_ATTACHMENTS,
  TICKET_MESSAGE_MAX,
  hasNoNul,
  server as msg,
} from '@herald/contract';
import { badRequest } from '../../lib/app-error.js';
import { discardStaged, stageAttachment, type StagedAttachment } from './ticket-files.js';

/** POST /api/tickets as read off the wire: raw text fields and the staged attachments. */
export interface TicketUpload {
  fields: Record<string, string>;
  files: StagedAttachment[];
}

/** Room for the longest field (the description) in 4-byte UTF-8; a longer one is cut and refused. */
const MAX_FIELD_BYTES = 4 * TICKET_MESSAGE_MAX;

/**
 * Reads the multipart form, streaming each attachment to a temp file in `dir` (the instance's
 * staging folder) as it arrives. On any failure every file this request wrote is deleted before
 * the error goes on.
 */
export async function readTicketUpload(req: FastifyRequest, dir: string): Promise<TicketUpload> {
  if (!req.isMultipart()) throw badRequest();
  await fs.mkdir(dir, { recursive: true });
  const fields: Record<string, string> = {};
  const files: StagedAttachment[] = [];
  const parts = req.parts({
    // One byte over our limit and one file more, so our own checks (with their messages) fire.
    limits: {
      fileSize: TICKET_ATTACHMENT_MAX_BYTES + 1,
      files: TICKET_MAX_ATTACHMENTS + 1,
      fieldSize: MAX_FIELD_BYTES,
      fields: 12,
    },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== TICKET_ATTACHMENTS_FIELD) {
          part.file.resume();
          throw badRequest();
        }
        if (files.length >= TICKET_MAX_ATTACHMENTS) {
          part.file.resume();
          throw badRequest(msg.ticketTooManyAttachments);
        }
        const staged = await stageAttachment(dir, part.filename, part.file);
        // A browser sends an empty file part when no file was chosen.
        if (staged.size === 0) await discardStaged([staged]);
        else files.push(staged);
        continue;
      }
      if (typeof part.value !== 'string') throw badRequest();
      if (part.valueTruncated || part.value.length > TICKET_MESSAGE_MAX) {
        throw badRequest(msg.fieldTooLong);
      }
      if (!hasNoNul(part.value)) throw badRequest(msg.textHasNul);
      // A repeated field is ambiguous: refuse it rather than guess which one counts.
      if (Object.hasOwn(fields, part.fieldname)) throw badRequest();
      fields[part.fieldname] = part.value;
    }
  } catch (err) {
    await discardStaged(files);
    if ((err as { code?: unknown }).code === 'FST_FILES_LIMIT') {
      throw badRequest(msg.ticketTooManyAttachments);
    }
    throw err;
  }
  return { fields, files };
}
