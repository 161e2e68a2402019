import type { S3StoreOptions } from './s3-store.js';

/**
 * Which FileStore a STORAGE_URL names (docs/operations.md, File storage):
 * - unset: the folder DATA_DIR;
 * - `s3://bucket[/prefix]?region=…&endpoint=…&path_style=true|false`: S3 or an S3-compatible
 *   server. `region` defaults to AWS_REGION, then us-east-1; an `endpoint` turns path-style
 *   addressing on unless `path_style=false`. Credentials come from the AWS SDK's usual chain
 *   (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an instance role), never the URL.
 */

export type StorageTarget = { driver: 'local' } | ({ driver: 's3' } & S3StoreOptions);

/** Parses STORAGE_URL; throws a one-line reason for a URL it cannot use. */
export function parseStorageUrl(
  raw: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): StorageTarget {
  if (!raw) return { driver: 'local' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('must be an s3://bucket/prefix URL');
  }
  if (url.protocol !== 's3:') throw new Error('must be an s3://bucket/prefix URL');
  if (url.username || url.password) {
    throw new Error('must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  }
  const bucket = url.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error('names no valid bucket');
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  if (prefix && !/^[A-Za-z0-9._/-]+$/.test(prefix)) throw new Error('has an invalid prefix');
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint && !/^https?:\/\/[^/]+\/?$/.test(endpoint)) {
    throw new Error('endpoint must be an http:// or https:// origin');
  }
  const pathStyle = url.searchParams.get('path_style');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false') {
    throw new Error('path_style must be true or false');
  }
  return {
    driver: 's3',
    bucket,
    prefix: prefix ? `${prefix}/` : '',
    ...(endpoint && { endpoint: endpoint.replace(/\/$/, '') }),
    region: url.searchParams.get('region') ?? env.AWS_REGION ?? 'us-east-1',
    forcePathStyle: pathStyle === null ? Boolean(endpoint) : pathStyle === 'true',
  };
}
