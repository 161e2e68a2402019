import fs from 'node:fs/promises';
import { setImmediate as turn } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { FILE_LIMITS, MAX_CAMPAIGN_IMAGES, MAX_RECIPIENTS, server as msg } from '@herald/contract';
import { badRequest } from '../../lib/app-error.js';
import { discardFiles, FILE_FIELDS, stageFile, type StagedFile } from './campaign-files.js';
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
/** Characters scanned between turns of the event loop (a few milliseconds each). */
const SCAN_SLICE = 1 << 20;
const TO = 'to';

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
    // One byte over the largest kind's limit, so our own check (with its message) fires first;
    // `to` may come as a file part too (streamed, up to MAX_TO_BYTES).
    limits: {
      fileSize: Math.max(MAX_FILE_BYTES, MAX_TO_BYTES) + 1,
      files: MAX_FILES + 1,
      fieldSize: MAX_TO_BYTES,
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
        if (part.type === 'file') await scanStream(scanner, part.file);
        else if (typeof part.value !== 'string') throw badRequest();
        else if (part.valueTruncated) throw badRequest(msg.campaignTooManyRecipients);
        else await scanText(scanner, part.value);
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
        if (staged.size === 0) await discardFiles([staged]);
        else files.push(staged);
        continue;
      }
      if (typeof part.value !== 'string' || part.valueTruncated) throw badRequest();
      if (part.value.length > MAX_TEXT_FIELD) throw badRequest();
      // A repeated field is ambiguous: refuse it rather than guess which one counts.
      if (Object.hasOwn(fields, part.fieldname)) throw badRequest();
      fields[part.fieldname] = part.value;
    }
  } catch (err) {
    await discardFiles(files);
    throw err;
  }
  const recipients = (scanner ?? new RecipientScanner(0)).finish();
  if (scanner) fields[TO] = await recipientsDigest(recipients);
  return { fields, files, recipients };
}

/** A `to` text field: scanned in slices, the event loop getting a turn between them. */
async function scanText(scanner: RecipientScanner, text: string): Promise<void> {
  for (let at = 0; at < text.length; at += SCAN_SLICE) {
    if (at > 0) await turn();
    scanner.push(text.slice(at, at + SCAN_SLICE));
  }
}

/** A `to` sent as a file part (text/plain, UTF-8): scanned chunk by chunk as it arrives. */
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
