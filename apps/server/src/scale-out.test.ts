import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { BackupDownloadReply, BackupProgress } from '@herald/contract';
import { createTestApp, s3StorageEnv, type TestApp } from '../test/harness.js';
import { runDueJobs } from './jobs/runner.js';
import {
  createCampaign,
  NORMAL,
  numbers,
} from './modules/campaigns/campaign-actions.test-fixtures.js';
import { file, fund, PDF, png } from './modules/campaigns/campaigns.test-fixtures.js';
import { attachment, openTicket } from './modules/tickets/tickets.test-fixtures.js';
import { buildHierarchy, type Hierarchy } from './modules/users/test-fixtures.js';

/**
 * Several instances, as an operator scales out (docs/operations.md, Several instances): two
 * instances on one database, each with a data folder of its own, files in S3-compatible
 * storage, and no secret set by hand. Whatever one stores or builds, the other serves; a token
 * from one is good on the other.
 */
describe('two instances with their own data folders and S3 storage, no secrets set', () => {
  let t: TestApp;
  let h: Hierarchy;
  let b: FastifyInstance;
  beforeAll(async () => {
    t = await createTestApp({ ...s3StorageEnv(), JWT_SECRET: '', DELIVERY_WEBHOOK_SECRET: '' });
    expect(t.config.jwtSecret).toBeUndefined();
    b = await t.otherInstance();
    expect(b.ctx.config.dataDir).not.toBe(t.config.dataDir);
    h = await buildHierarchy(t);
    await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
  });
  afterAll(() => t.close());

  const onB = (url: string, token: string): Promise<LightMyRequestResponse> =>
    b.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

  it('a campaign with an image made on one downloads with its image from the other', async () => {
    const image = png(80, 60);
    const id = await createCampaign(t, h.u1.token, numbers(3), {}, [
      file('images', image, 'a.png'),
    ]);
    const zip = await onB(`/api/campaigns/${id}/download`, h.u1.token);
    expect(zip.statusCode, zip.body).toBe(200);
    const entries = unzipSync(new Uint8Array(zip.rawPayload));
    expect(Buffer.from(entries['a.png']!).equals(image)).toBe(true);
  });

  it('a backup started on one downloads from the other', async () => {
    const started = await t.request({
      method: 'POST',
      url: '/api/backup/generate-download',
      token: h.admin,
    });
    expect(started.statusCode, started.body).toBe(200);
    const reply = started.json<BackupDownloadReply>();
    await runDueJobs(t.app.ctx);
    expect((await onB(reply.progressUrl, h.admin)).json<BackupProgress>().state).toBe('ready');
    const xlsx = await onB(reply.downloadUrl, h.admin);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(xlsx.headers['content-length']).toBe(String(xlsx.rawPayload.length));
  });

  it('a ticket attachment uploaded to one opens from the other', async () => {
    const ticket = await openTicket(t, h.u1.token, {}, [attachment(PDF, 'invoice.pdf')]);
    const [doc] = ticket.attachments;
    const res = await onB(`/api/tickets/${ticket._id}/attachments/${doc!.id}`, h.u1.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
  });
});
