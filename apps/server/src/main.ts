import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config/config.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded-postgres.js';
import { buildApp, type BuiltApp } from './app.js';
import { startJobRunner, type JobRunner } from './jobs/runner.js';

/** Reads config, starts the database if needed, builds the app and its jobs, listens, stops. */
async function main() {
  // src/main.ts and dist/main.js sit at the same depth below apps/server.
  const here = path.dirname(fileURLToPath(import.meta.url));
  const config = loadConfig(process.env, { webDist: path.resolve(here, '../../web/dist') });

  let embedded: EmbeddedPostgres | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      log: (m) => console.log(m),
      // It died and would not start again (restarts are tried for a minute): exit non-zero,
      // so whatever runs the app (systemd, Docker, a shell loop) starts all of it afresh.
      onFailure: (err) => {
        console.error(err.message);
        process.exit(1);
      },
    });
    databaseUrl = embedded.url;
  }

  let built: BuiltApp;
  let jobs: JobRunner;
  try {
    built = await buildApp({ config, databaseUrl });
    const { app } = built;
    jobs = await startJobRunner(app.ctx).catch(async (err: unknown) => {
      await app.close();
      throw err;
    });
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  const { app, firstAdmin } = built;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    try {
      // Jobs first: they use the database that closing the app closes.
      await jobs.stop();
      await app.close();
    } finally {
      await embedded?.stop();
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // The in-process simulator posts its status events to this app's webhook, over loopback.
  app.ctx.delivery.setCallbackBase(`http://${loopbackHost(config.host)}:${port}`);
  const lines = [``, `Herald is running at http://localhost:${port}`];
  if (firstAdmin?.generatedPassword) {
    lines.push(`First Admin created: ${firstAdmin.email} / ${firstAdmin.generatedPassword}`);
    lines.push(`(this password is shown only once; change it from My Profile)`);
  } else if (firstAdmin) {
    lines.push(`First Admin created: ${firstAdmin.email} with the password from ADMIN_PASSWORD`);
  } else {
    lines.push(`Log in with an existing account (data in ${config.dataDir})`);
  }
  console.log(lines.join('\n') + '\n');
}

/** An address this machine reaches the app on: loopback when it listens on every interface. */
function loopbackHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === 'localhost') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
