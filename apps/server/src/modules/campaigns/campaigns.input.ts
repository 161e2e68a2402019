import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import {
  FILE_LIMITS,
  hasNoNul,
  MAX_CAMPAIGN_IMAGES,
  MAX_RECIPIENTS,
  server as msg,
} from '@herald/contract';
import { badRequest } from '../../lib/app-error.js';
import { discardStaged, FILE_FIELDS, stageFile, type StagedFile } from './campaign-files.js';
import { RecipientScanner, recipientsDigest, type RecipientList } from './recipient-scan.js';

/**
 * POST /api/campaigns as read off the wire: raw text fields, the staged files and the parsed
 * recipients. `fields.to` holds a digest of the kept numbers, not the text (the text is
 * scanned as it arrives and dropped; the digest keeps idempotency's request hash honest).
 */
export interface CampaignUpload {
  fields: Record<string, string>;
  files: StagedFile[];
  recipients: RecipientList;
}

const MAX_FILE_BYTES = Math.max(...Object.values(FILE_LIMITS));
/** dp + singleCreative + 3 images + video + pdf + audio. */
const MAX_FILES = 5 + MAX_CAMPAIGN_IMAGES;
/** Room for MAX_RECIPIENTS numbers of up to 15 digits and a separator each. */
const MAX_TO_BYTES = MAX_RECIPIENTS * 16 + 1024;
/** Every other text field is small (the message is at most 4,096 characters). */
const MAX_TEXT_FIELD = 8 * 1024;
/**
 * The parser holds a text field in memory up to this many bytes and marks it truncated past
 * them: room for MAX_TEXT_FIELD characters of 4-byte UTF-8, so only an oversized field is cut.
 */
const MAX_TEXT_FIELD_BYTES = 4 * MAX_TEXT_FIELD;
const TO = 'to';

/**
 * Reads the multipart form, streaming each file to a temp file in `dir` (this instance's
 * staging folder) as it arrives. On any failure
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
    // `to` is always read as a stream, even sent as a plain text field, so it alone may be
    // large; every other text field is cut at MAX_TEXT_FIELD_BYTES while it arrives instead
    // of being buffered whole first.
    isPartAFile: (name, contentType, fileName) =>
      name === TO || contentType === 'application/octet-stream' || fileName !== undefined,
    // One byte over the largest kind's limit, so our own check (with its message) fires first.
    limits: {
      fileSize: Math.max(MAX_FILE_BYTES, MAX_TO_BYTES) + 1,
      files: MAX_FILES + 1,
      fieldSize: MAX_TEXT_FIELD_BYTES,
      fields: 20,
    },
  });
  let scanner: RecipientScanner | undefined;
  try {
    for await (const part of parts) {
      if (part.fieldname === TO) {
        // A repeated field is ambiguous: refuse it rather than guess which one counts.
        if (scanner) throw badRequest();
        scanner = new RecipientScanner();
        // isPartAFile makes every `to` part a stream, so a text `to` never sits whole in memory.
        if (part.type !== 'file') throw badRequest();
        await scanStream(scanner, part.file);
        continue;
      }
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
        if (staged.size === 0) await discardStaged([staged]);
        else files.push(staged);
        continue;
      }
      if (typeof part.value !== 'string') throw badRequest();
      if (part.valueTruncated || part.value.length > MAX_TEXT_FIELD) {
        throw badRequest(msg.fieldTooLong);
      }
      // PostgreSQL cannot store NUL in text; refused here for the fields the schema passes as is.
      if (!hasNoNul(part.value)) throw badRequest(msg.textHasNul);
      // A repeated field is ambiguous: refuse it rather than guess which one counts.
      if (Object.hasOwn(fields, part.fieldname)) throw badRequest();
      fields[part.fieldname] = part.value;
    }
  } catch (err) {
    await discardStaged(files);
    throw err;
  }
  const recipients = (scanner ?? new RecipientScanner(0)).finish();
  if (scanner) fields[TO] = await recipientsDigest(recipients);
  return { fields, files, recipients };
}

/** A `to` part (a file or a text field, UTF-8): scanned chunk by chunk as it arrives. */
async function scanStream(scanner: RecipientScanner, stream: Readable): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_TO_BYTES) throw badRequest(msg.campaignTooManyRecipients);
      scanner.push(decoder.decode(chunk, { stream: true }));
    }
  } catch (err) {
    stream.resume();
    if ((err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw badRequest(msg.campaignTooManyRecipients);
    }
    throw err;
  }
  scanner.push(decoder.decode());
}
