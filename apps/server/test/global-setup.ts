import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { migrate, openDatabase } from '../src/db/database.js';
import { migrateJobQueue } from '../src/jobs/job-queue.js';
import { startTestS3Server } from './s3-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Maintenance URL of the test server; each test file creates its own database there. */
    pgAdminUrl: string;
    templateDb: string;
    /** The S3-compatible server on loopback (test/s3-server.ts). */
    s3Endpoint: string;
  }
}

/**
 * Starts one PostgreSQL for the whole run (embedded by default; TEST_DATABASE_URL points at
 * another server instead), migrates a template database once (the app's tables and the job
 * queue's), and hands out its URL; starts the S3-compatible server the S3 driver's tests use.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedPostgres | undefined;
  let dir: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-test-pg-'));
    await fs.chmod(dir, 0o755);
    embedded = await startEmbeddedPostgres({ dataDir: dir, database: 'postgres' });
    adminUrl = embedded.adminUrl;
  }
  const templateDb = `herald_tpl_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await dropOrphanAppRoles(admin);
  await admin.query(`CREATE DATABASE "${templateDb}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${templateDb}`;
  const handle = openDatabase(url.toString(), 2);
  await migrate(handle.pool);
  // graphile-worker's schema too, so each test database cloned from the template has it.
  const quiet = () => {};
  await migrateJobQueue(handle.pool, { error: quiet, warn: quiet, info: quiet, debug: quiet });
  await handle.close();

  const s3 = await startTestS3Server();

  project.provide('pgAdminUrl', adminUrl);
  project.provide('templateDb', templateDb);
  project.provide('s3Endpoint', s3.endpoint);

  return async () => {
    await s3.close();
    await admin.query(`DROP DATABASE IF EXISTS "${templateDb}" WITH (FORCE)`).catch(() => {});
    await admin.end();
    await embedded?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  };
}

/**
 * Each test database gets its own app role (roles belong to the cluster); a run that was killed
 * left some behind. Drops those whose database is gone; a live run's databases keep theirs.
 */
async function dropOrphanAppRoles(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ rolname: string }>(
    `SELECT rolname FROM pg_roles WHERE rolname LIKE 'herald\\_t\\_%\\_app'
       AND NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = left(rolname, -4))`,
  );
  for (const { rolname } of rows) {
    await admin.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(rolname)}`).catch(() => {});
  }
}
