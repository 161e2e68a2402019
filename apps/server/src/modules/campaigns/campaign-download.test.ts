import { readdirSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type CampaignDetail } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { pythonZipCheck, unzip } from '../../../test/zip.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { NORMAL, createCampaign, messageOf, numbers } from './campaign-actions.test-fixtures.js';
import { archiveNames, prepareDownload } from './campaign-download.js';
import { CAMPAIGN_FILES_FOLDER } from './campaign-files.js';
import { PDF, file, fund, png } from './campaigns.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 30_000);
});
afterAll(() => t.close());

const download = (token: string | undefined, id: string) =>
  t.request({ method: 'GET', url: `/api/campaigns/${id}/download`, token });

describe('archiveNames', () => {
  it('numbers clashes like a desktop and keeps clear of the fixed files', () => {
    expect(
      archiveNames([
        'a.png',
        'a.png',
        'A.PNG',
        'campaign.json',
        'recipients.csv',
        'Report.csv',
        'x',
        'x',
      ]),
    ).toEqual([
      'a.png',
      'a (2).png',
      'A (3).PNG',
      'campaign (2).json',
      'recipients (2).csv',
      'Report (2).csv',
      'x',
      'x (2)',
    ]);
  });

  it('path separators and control characters never reach a name', () => {
    const [a, b, c] = archiveNames(['../../etc/passwd', 'C:\\x\\y.pdf', '\u202egnp.exe']);
    for (const name of [a, b, c]) {
      expect(name).not.toMatch(/[\\/\u0000-\u001f\u202e]/); // eslint-disable-line no-control-regex
      expect(name).not.toMatch(/^\./);
    }
  });
});

describe('GET /api/campaigns/:id/download', () => {
  it('zips campaign.json, recipients.csv and every media file under its own name', async () => {
    const to = numbers(3);
    const images = [png(10, 10), png(20, 20), png(30, 30)];
    const id = await createCampaign(t, h.u1.token, to, {}, [
      file('images', images[0]!, 'pic.png'),
      file('images', images[1]!, 'pic.png'),
      file('images', images[2]!, 'PIC.png'),
      file('pdf', PDF, 'campaign.json'),
    ]);
    const res = await download(h.r1.token, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="campaign_${id}.zip"`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');

    const zip = res.rawPayload;
    const files = unzip(zip);
    expect([...files.keys()]).toEqual([
      'campaign.json',
      'recipients.csv',
      // Media in the detail view's order: by kind, then position.
      'pic.png',
      'pic (2).png',
      'PIC (3).png',
      'campaign (2).json',
    ]);
    expect(pythonZipCheck(zip).sort()).toEqual([...files.keys()].sort());

    const detail = await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token: h.admin });
    const { recipients, recipientsNextCursor, ...withoutTo } = detail.json<CampaignDetail>();
    expect(recipients).toEqual(to);
    expect(recipientsNextCursor).toBeNull();
    expect(JSON.parse(files.get('campaign.json')!)).toEqual(withoutTo);
    expect(files.get('recipients.csv')).toBe(`number\r\n${to.join('\r\n')}\r\n`);
    expect(files.get('pic.png')).toBe(images[0]!.toString('utf8'));
    expect(files.get('PIC (3).png')).toBe(images[2]!.toString('utf8'));
    expect(files.get('campaign (2).json')).toBe(PDF.toString('utf8'));
  });

  it('streams a long recipient list in keyset batches', async () => {
    const to = Array.from({ length: 20_050 }, (_, i) => `96${String(i).padStart(8, '0')}`);
    const id = await createCampaign(t, h.u1.token, to);
    const res = await download(h.u1.token, id);
    expect(res.statusCode).toBe(200);
    const csv = unzip(res.rawPayload).get('recipients.csv')!;
    expect(csv).toBe(`number\r\n${to.join('\r\n')}\r\n`);
  });

  it('answers 410 before any byte when a media file is no longer stored', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(1), {}, [
      file('images', png(10, 10), 'kept.png'),
      file('pdf', PDF, 'lost.pdf'),
    ]);
    const row = await t.db
      .selectFrom('campaign_files')
      .select('stored_name')
      .where('campaign_id', '=', id)
      .where('kind', '=', 'pdf')
      .executeTakeFirstOrThrow();
    await t.app.ctx.files.delete(`${CAMPAIGN_FILES_FOLDER}/${row.stored_name}`);
    const res = await download(h.u1.token, id);
    expect([res.statusCode, messageOf(res)]).toEqual([410, msg.fileGone]);
  });

  it('stops at once, holding no file open, when the client leaves early', async () => {
    const big = Buffer.concat([PDF, randomBytes(2_500_000)]);
    const to = Array.from({ length: 8_000 }, (_, i) => `97${String(i).padStart(8, '0')}`);
    const id = await createCampaign(t, h.u1.token, to, {}, [file('pdf', big, 'big.pdf')]);
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    // Gone during campaign.json, during recipients.csv, during the media file.
    for (const leaveAfter of [1, 5_000, 1_500_000]) {
      const zip = await prepareDownload(t.app.ctx, h.u1.user, id);
      const out = new PassThrough({ highWaterMark: 1024 });
      let taken = 0;
      out.on('data', (chunk: Buffer) => {
        taken += chunk.length;
        if (taken >= leaveAfter) out.destroy();
      });
      await expect(zip.write(out)).rejects.toThrow();
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(openFiles()).toBeLessThanOrEqual(before);
  });

  it('is scoped: 404 outside or unknown, 401 without a login', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(1));
    for (const token of [h.admin, h.r1.token, h.s1.token, h.u1.token]) {
      expect((await download(token, id)).statusCode).toBe(200);
    }
    for (const token of [h.u2.token, h.r2.token, h.u3.token]) {
      const res = await download(token, id);
      expect([res.statusCode, messageOf(res)]).toEqual([404, msg.campaignNotFound]);
    }
    const unknown = await download(h.admin, randomUUID());
    expect([unknown.statusCode, messageOf(unknown)]).toEqual([404, msg.campaignNotFound]);
    expect((await download(undefined, id)).statusCode).toBe(401);
  });
});
