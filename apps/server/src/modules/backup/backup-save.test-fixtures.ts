import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { BackupSave } from '@herald/contract';
import { runDueJobs } from '../../jobs/runner.js';

/** Tests' way through "save backup to server", which runs on the job runner (manual-backup.ts). */

export const SAVE_URL = '/api/backup/save-to-server';

export async function postSave(app: FastifyInstance, token: string): Promise<BackupSave> {
  const res = await app.inject({
    method: 'POST',
    url: SAVE_URL,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json<BackupSave>();
}

export async function getSave(app: FastifyInstance, token: string, id: string) {
  const res = await app.inject({
    method: 'GET',
    url: `${SAVE_URL}/${id}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<BackupSave>();
}

/**
 * Queues a save through `app`, runs it on `runner` (the job runner of any instance), and answers
 * the saved file's name once the save reads done.
 */
export async function saveToServer(
  app: FastifyInstance,
  token: string,
  runner: FastifyInstance = app,
): Promise<string> {
  const queued = await postSave(app, token);
  await runDueJobs(runner.ctx);
  const done = await getSave(app, token, queued.id);
  expect(done.state, done.message ?? '').toBe('done');
  return done.name!;
}
