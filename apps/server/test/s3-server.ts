import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import S3rver from 's3rver';

/**
 * An S3-compatible server on loopback for the tests (s3rver: S3's REST API over a folder,
 * multipart uploads included), so the S3 driver is tested against a real HTTP server and
 * never the internet. Its default keys are S3RVER/S3RVER.
 */

export const TEST_BUCKET = 'herald-test';
export const TEST_S3_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  close(): Promise<void>;
}

export async function startTestS3Server(): Promise<TestS3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-test-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET, configs: [] }],
  });
  const { address, port } = await server.run();
  return {
    endpoint: `http://${address}:${port}`,
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

/** A STORAGE_URL for one test: its own prefix in the shared bucket. */
export function testStorageUrl(endpoint: string, prefix: string): string {
  return `s3://${TEST_BUCKET}/${prefix}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1`;
}
