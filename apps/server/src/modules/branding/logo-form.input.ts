import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { MAX_LOGO_BYTES, server as msg } from '@herald/contract';
import { AppError, badRequest } from '../../lib/app-error.js';

/**
 * A form that may carry a company logo, before validation: the fields as sent, and the logo's
 * bytes if any. Edit User (the users module) and Whitelabel Settings both take one.
 */
export interface LogoForm {
  fields: Record<string, unknown>;
  logo: Buffer | null;
}

export const LOGO_FIELD = 'companyLogo';

/**
 * Reads the form from multipart/form-data (its fields, with an optional `companyLogo` file) or
 * from a JSON object (same fields, no logo). The fields stay raw: whether a field was sent at
 * all matters to the rules (a field left out is kept as stored).
 */
export async function readLogoForm(req: FastifyRequest): Promise<LogoForm> {
  if (!req.isMultipart()) {
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest();
    return { fields: body as Record<string, unknown>, logo: null };
  }
  const fields: Record<string, string> = {};
  let logo: Buffer | null = null;
  // One file at most, never larger than a logo may be: busboy stops reading past the limit.
  const parts = req.parts({ limits: { fileSize: MAX_LOGO_BYTES, files: 1 } });
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== LOGO_FIELD) {
        part.file.resume();
        throw badRequest();
      }
      const data = await readLogo(part);
      // A browser sends an empty file part when no file was chosen.
      if (data.length > 0) logo = data;
      continue;
    }
    if (typeof part.value !== 'string' || part.valueTruncated) throw badRequest();
    // A repeated field is ambiguous: refuse it rather than guess which one counts.
    if (Object.hasOwn(fields, part.fieldname)) throw badRequest();
    fields[part.fieldname] = part.value;
  }
  return { fields, logo };
}

async function readLogo(part: MultipartFile): Promise<Buffer> {
  try {
    return await part.toBuffer();
  } catch (err) {
    if (isFileTooLarge(err)) throw new AppError(413, msg.logoTooLarge);
    throw err;
  }
}

function isFileTooLarge(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    'code' in err &&
    err.code === 'FST_REQ_FILE_TOO_LARGE'
  );
}
