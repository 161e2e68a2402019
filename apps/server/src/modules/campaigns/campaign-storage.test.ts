import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { server as msg, type CampaignDetail } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { STORAGE_DRIVERS } from '../../../test/storage-fixtures.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import {
  NORMAL,
  createCampaign,
  csvFile,
  messageOf,
  numbers,
  postReport,
} from './campaign-actions.test-fixtures.js';
import { CAMPAIGN_FILES_FOLDER, removeCampaignFiles } from './campaign-files.js';
import {
  PDF,
  file,
  fund,
  png,
  postCampaign,
  stagedFiles,
  storedFiles,
} from './campaigns.test-fixtures.js';

/**
 * Campaign media through the FileStore, on both drivers: what one instance stores, another
 * serves (on S3, even with its own data folder), and a row whose object is gone answers 410.
 */

describe.each(STORAGE_DRIVERS)('campaign media in the FileStore, %s driver', (driver, env) => {
  let t: TestApp;
  let h: Hierarchy;
  /** The instance that reads: on S3 a second one with its own data folder (harness.ts). */
  let reader: FastifyInstance;
  beforeAll(async () => {
    t = await createTestApp(env());
    h = await buildHierarchy(t);
    await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
    reader = await t.otherInstance();
  });
  afterAll(() => t.close());

  const get = (url: string, token: string): Promise<LightMyRequestResponse> =>
    reader.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

  /** A campaign with an image and a PDF; answers its id, the image's file id and stored name. */
  async function campaignWithImage(image: Buffer) {
    const id = await createCampaign(t, h.u1.token, numbers(2), {}, [
      file('images', image, 'shop.png'),
      file('pdf', PDF, 'prices.pdf'),
    ]);
    const detail = await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token: h.admin });
    const img = detail.json<CampaignDetail>().files.find((f) => f.kind === 'image');
    const row = await t.db
      .selectFrom('campaign_files')
      .select('stored_name')
      .where('id', '=', img!.id)
      .executeTakeFirstOrThrow();
    return { id, fileId: img!.id, storedName: row.stored_name };
  }

  it('stores the media under uploads/campaigns, nothing staged left', async () => {
    const { storedName } = await campaignWithImage(png(40, 40));
    expect(storedName).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(await storedFiles(t)).toContain(storedName);
    const stat = await t.app.ctx.files.stat(`${CAMPAIGN_FILES_FOLDER}/${storedName}`);
    expect(stat?.size).toBe(png(40, 40).length);
    expect(await stagedFiles(t)).toEqual([]);
  });

  it('another instance serves the media file and the zip with the stored bytes', async () => {
    const image = png(64, 48);
    const { id, fileId } = await campaignWithImage(image);
    const media = await get(`/api/campaigns/${id}/files/${fileId}`, h.admin);
    expect(media.statusCode, media.body).toBe(200);
    expect(media.rawPayload.equals(image)).toBe(true);
    expect(media.headers['content-length']).toBe(String(image.length));
    expect(media.headers['content-type']).toBe('image/png');

    const zip = await get(`/api/campaigns/${id}/download`, h.u1.token);
    expect(zip.statusCode, zip.body).toBe(200);
    const entries = unzipSync(new Uint8Array(zip.rawPayload));
    expect(Object.keys(entries)).toEqual([
      'campaign.json',
      'recipients.csv',
      'shop.png',
      'prices.pdf',
    ]);
    expect(Buffer.from(entries['shop.png']!).equals(image)).toBe(true);
    expect(Buffer.from(entries['prices.pdf']!).equals(PDF)).toBe(true);
  });

  it('a stored object gone: the media file and the zip answer 410 with the message', async () => {
    const { id, fileId, storedName } = await campaignWithImage(png(12, 12));
    await t.app.ctx.files.delete(`${CAMPAIGN_FILES_FOLDER}/${storedName}`);
    const media = await get(`/api/campaigns/${id}/files/${fileId}`, h.admin);
    expect([media.statusCode, messageOf(media)]).toEqual([410, msg.fileGone]);
    const zip = await get(`/api/campaigns/${id}/download`, h.admin);
    expect([zip.statusCode, messageOf(zip)]).toEqual([410, msg.fileGone]);
  });

  it('a creation refused after its files were checked stores and stages nothing', async () => {
    const before = await storedFiles(t);
    const res = await postCampaign(
      t,
      h.u1.token,
      { creditType: NORMAL, message: 'Hi', to: numbers(200).join(',') },
      [file('images', png(10, 10)), file('pdf', PDF)],
    );
    expect(res.statusCode).toBe(409);
    expect(await storedFiles(t)).toEqual(before);
    expect(await stagedFiles(t)).toEqual([]);
  });

  it('a report upload is staged only for the request', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(2));
    const before = await storedFiles(t);
    const res = await postReport(
      t,
      h.admin,
      id,
      csvFile(`number,status\n${numbers(1)[0]},Delivered\n`),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await stagedFiles(t)).toEqual([]);
    expect(await storedFiles(t)).toEqual(before);
  });

  it('removeCampaignFiles deletes the named objects and skips names that are not plain', async () => {
    const store = t.app.ctx.files;
    const gone = '00000000-0000-4000-8000-0000000000aa.png';
    const kept = '00000000-0000-4000-8000-0000000000bb.png';
    await store.put(`${CAMPAIGN_FILES_FOLDER}/${gone}`, Buffer.from('a'));
    await store.put(`${CAMPAIGN_FILES_FOLDER}/${kept}`, Buffer.from('b'));
    await removeCampaignFiles(store, [gone, 'missing.png', '../campaigns/' + kept, `x/${kept}`]);
    expect(await store.stat(`${CAMPAIGN_FILES_FOLDER}/${gone}`)).toBeNull();
    expect(await store.stat(`${CAMPAIGN_FILES_FOLDER}/${kept}`)).not.toBeNull();
  });
});
