import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { TEST_S3_KEYS } from '../../../test/s3-server.js';
import { buildHierarchy } from '../../modules/users/test-fixtures.js';
import { attachment, postTicket } from '../../modules/tickets/tickets.test-fixtures.js';
import { PDF } from '../../modules/campaigns/campaigns.test-fixtures.js';
import { AppError } from '../app-error.js';
import { S3FileStore } from './s3-store.js';

/**
 * An S3-compatible server with no room left answers every write with its error document: MinIO
 * below its drives' free threshold (507 XMinioStorageFull) or over a bucket's hard quota (400
 * XMinioAdminBucketQuotaExceeded), Ceph RGW over a quota (403 QuotaExceeded). This fake answers
 * the one it is set to, in S3's XML error format.
 */
const FULL_ANSWERS = [
  {
    status: 507,
    code: 'XMinioStorageFull',
    text: 'Storage backend has reached its minimum free drive threshold.',
  },
  { status: 400, code: 'XMinioAdminBucketQuotaExceeded', text: 'Bucket quota exceeded' },
  { status: 403, code: 'QuotaExceeded', text: 'Quota exceeded' },
];

let answer = FULL_ANSWERS[0]!;
let server: http.Server;
let endpoint = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.status, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${answer.code}</Code>` +
          `<Message>${answer.text}</Message><Resource>${req.url}</Resource>` +
          '<RequestId>1</RequestId><HostId>h</HostId></Error>',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('object storage with no room left', () => {
  it.each(FULL_ANSWERS)(
    'a write refused with $code is a 507 with the storage message',
    async (a) => {
      answer = a;
      const store = new S3FileStore({
        bucket: 'full',
        prefix: '',
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: TEST_S3_KEYS,
      });
      try {
        const err = await store
          .put('uploads/tickets/x.pdf', Buffer.from('%PDF-1.4'))
          .catch((e) => e);
        expect(err).toBeInstanceOf(AppError);
        expect(err).toMatchObject({ status: 507, message: msg.storageLow });
      } finally {
        await store.close();
      }
    },
  );

  it('an upload to an app on that storage answers 507 with the message, nothing staged', async () => {
    answer = FULL_ANSWERS[0]!;
    process.env.AWS_ACCESS_KEY_ID ??= TEST_S3_KEYS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY ??= TEST_S3_KEYS.secretAccessKey;
    const t: TestApp = await createTestApp({
      STORAGE_URL: `s3://full/herald?endpoint=${encodeURIComponent(endpoint)}`,
    });
    try {
      const h = await buildHierarchy(t);
      const res = await postTicket(t, h.u1.token, {}, [attachment(PDF, 'a.pdf')]);
      expect(res.statusCode).toBe(507);
      expect(res.json()).toEqual({ message: msg.storageLow });
      expect(await fs.readdir(t.app.ctx.stagingDir)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
