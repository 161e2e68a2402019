import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  paginateListObjectsV2,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { server as msg } from '@herald/contract';
import { AppError } from '../app-error.js';
import {
  isStorageKey,
  type FileStore,
  type OpenedObject,
  type StoredObject,
} from './file-store.js';

/**
 * The S3 driver (AWS S3 or any S3-compatible server: MinIO, Ceph, R2…), with the AWS SDK v3.
 * Objects live at `<prefix><key>` in one bucket. Writes go through lib-storage's Upload, which
 * streams (a multipart upload past 5 MB, aborted when the body fails), so nothing is read whole
 * into memory and no reader ever sees part of an object: S3 makes an object visible only once
 * its upload completes.
 */

export interface S3StoreOptions {
  bucket: string;
  /** Key prefix inside the bucket, '' or ending in '/'. */
  prefix: string;
  /** An S3-compatible server's URL; unset for AWS itself. */
  endpoint?: string;
  region: string;
  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** Unset: the SDK's usual chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Parts of a multipart upload: S3's smallest, so a stream holds at most a few in memory. */
const PART_SIZE = 5 * 1024 * 1024;

/** An S3 error's code (the SDK gives it as the error's name) and the HTTP status it came with. */
function s3Error(err: unknown): { name?: unknown; status?: number } {
  if (typeof err !== 'object' || err === null) return {};
  const name = 'name' in err ? err.name : undefined;
  const status =
    '$metadata' in err && typeof err.$metadata === 'object' && err.$metadata !== null
      ? (err.$metadata as { httpStatusCode?: number }).httpStatusCode
      : undefined;
  return { name, status };
}

function isNotFound(err: unknown): boolean {
  const { name, status } = s3Error(err);
  return name === 'NoSuchKey' || name === 'NotFound' || status === 404;
}

/**
 * The storage's answers that it has no room (MinIO: its drives below their free threshold, 507
 * XMinioStorageFull, or a bucket's hard quota, 400 XMinioAdminBucketQuotaExceeded; Ceph RGW: 403
 * QuotaExceeded). A write refused so is the server out of space, not a failure of Herald: it
 * answers 507 with the same message as a full local disk.
 */
const STORAGE_FULL_CODES = new Set([
  'XMinioStorageFull',
  'XMinioAdminBucketQuotaExceeded',
  'QuotaExceeded',
]);

export function isStorageFull(err: unknown): boolean {
  const { name, status } = s3Error(err);
  return (typeof name === 'string' && STORAGE_FULL_CODES.has(name)) || status === 507;
}

export class S3FileStore implements FileStore {
  readonly driver = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly opts: S3StoreOptions) {
    const config: S3ClientConfig = {
      region: opts.region,
      forcePathStyle: opts.forcePathStyle,
      ...(opts.endpoint && { endpoint: opts.endpoint }),
      ...(opts.credentials && { credentials: opts.credentials }),
    };
    this.client = new S3Client(config);
  }

  private objectKey(key: string): string {
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
    return `${this.opts.prefix}${key}`;
  }

  async put(
    key: string,
    body: Readable | Buffer,
    opts: { contentType?: string } = {},
  ): Promise<void> {
    const upload = new Upload({
      client: this.client,
      partSize: PART_SIZE,
      queueSize: 2,
      params: {
        Bucket: this.opts.bucket,
        Key: this.objectKey(key),
        Body: body,
        ...(opts.contentType && { ContentType: opts.contentType }),
      },
    });
    // When the body fails, the upload is aborted; an abort refused by the server (some
    // S3-compatible ones lack it) must not hide why the write failed.
    let bodyError: unknown;
    if (!Buffer.isBuffer(body)) body.once('error', (err) => (bodyError ??= err));
    try {
      await upload.done();
    } catch (err) {
      if (bodyError) throw bodyError;
      if (isStorageFull(err)) throw new AppError(507, msg.storageLow);
      throw err;
    }
  }

  async putFile(key: string, filePath: string, opts: { contentType?: string } = {}) {
    await this.put(key, createReadStream(filePath), opts);
    await fs.rm(filePath, { force: true });
  }

  async open(key: string): Promise<OpenedObject | null> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.opts.bucket, Key: this.objectKey(key) }),
      );
      if (!(out.Body instanceof Readable))
        throw new Error('S3 answered a body that is not a stream');
      return { stream: out.Body, size: out.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const out = await this.client.send(
        new HeadObjectCommand({ Bucket: this.opts.bucket, Key: this.objectKey(key) }),
      );
      return { key, size: out.ContentLength ?? 0, modified: out.LastModified ?? new Date(0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: this.objectKey(key) }),
    );
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    const folder = prefix.replace(/\/$/, '');
    if (!isStorageKey(folder)) throw new Error(`not a storage prefix: ${JSON.stringify(prefix)}`);
    const pages = paginateListObjectsV2(
      { client: this.client },
      { Bucket: this.opts.bucket, Prefix: `${this.opts.prefix}${folder}/` },
    );
    for await (const page of pages) {
      for (const obj of page.Contents ?? []) {
        if (!obj.Key) continue;
        const key = obj.Key.slice(this.opts.prefix.length);
        if (!isStorageKey(key)) continue;
        yield { key, size: obj.Size ?? 0, modified: obj.LastModified ?? new Date(0) };
      }
    }
  }

  where(key: string): string {
    return `s3://${this.opts.bucket}/${this.objectKey(key)}`;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
