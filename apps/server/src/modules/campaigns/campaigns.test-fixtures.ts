import fs from 'node:fs/promises';
import { expect } from 'vitest';
import type { CreditType } from '@herald/contract';
import { storedNames } from '../../../test/storage-fixtures.js';
import type { TestApp } from '../../../test/harness.js';
import { creditBody, postCredit } from '../credits/credits.test-fixtures.js';
import { multipart, type FilePart } from '../users/test-fixtures.js';
import { CAMPAIGN_FILES_FOLDER } from './campaign-files.js';

/** Test-only helpers shared by the campaigns tests. */

/** A PNG signature and IHDR chunk declaring `width`×`height` (enough for the header check). */
export function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 2, 0, 0, 0], 16);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    ihdr,
    Buffer.alloc(32),
  ]);
}

/** A JPEG: SOI, an APP0 JFIF segment, then a SOF0 declaring `width`×`height`. */
export function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.concat([
    Buffer.from([0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0', 'latin1'),
    Buffer.alloc(9),
  ]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 8, 0, 0, 0, 0, 3, 1, 0x11, 0, 2, 0x11, 1, 3]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

export const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypisom', 'latin1'),
  Buffer.alloc(64),
]);
export const PDF = Buffer.from('%PDF-1.4\n%fake\n', 'latin1');
export const MP3 = Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.alloc(64)]);

export function file(field: string, data: Buffer, filename = `${field}.bin`): FilePart {
  return { field, filename, type: 'application/octet-stream', data };
}

/** A file of `size` bytes that starts like a PNG. */
export function bigPng(size: number): Buffer {
  const head = png(300, 300);
  return Buffer.concat([head, Buffer.alloc(size - head.length)]);
}

export function postCampaign(
  t: TestApp,
  token: string,
  fields: Record<string, string>,
  files: FilePart[] = [],
  idempotencyKey?: string,
) {
  const body = multipart(fields, ...files);
  return t.request({
    method: 'POST',
    url: '/api/campaigns',
    token,
    payload: body.payload,
    headers: {
      ...body.headers,
      ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    },
  });
}

/** Admin mints `count` credits of `creditType` to `email`. */
export async function fund(
  t: TestApp,
  admin: string,
  email: string,
  creditType: CreditType,
  count: number,
) {
  const res = await postCredit(t, admin, creditBody(email, { creditType, count }));
  expect(res.statusCode, res.body).toBe(201);
}

/** The names of every stored campaign media file (the store's `uploads/campaigns` folder). */
export function storedFiles(t: TestApp): Promise<string[]> {
  return storedNames(t.app.ctx.files, CAMPAIGN_FILES_FOLDER);
}

/** The temp files in this instance's staging folder (a request's upload being checked). */
export async function stagedFiles(t: TestApp): Promise<string[]> {
  try {
    return (await fs.readdir(t.app.ctx.stagingDir)).sort();
  } catch {
    return [];
  }
}

export async function campaignRows(t: TestApp) {
  const count = async (table: 'campaigns' | 'campaign_recipients' | 'campaign_files') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    campaigns: await count('campaigns'),
    recipients: await count('campaign_recipients'),
    files: await count('campaign_files'),
  };
}
