import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  binaries,
  DB_USER,
  freePort,
  initCluster,
  runAsUser,
  startPostmaster,
  type Binaries,
  type Postmaster,
  type RunAs,
} from '../src/db/postgres-server.js';

/**
 * A throwaway PostgreSQL of a test's own (the embedded binaries, a temp directory, a free
 * port), standing in for a production database behind DATABASE_URL: the test kills its
 * postmaster with SIGKILL and starts it again on the same data and port, as a service manager
 * would. Never the machine's PostgreSQL.
 */
export class ScratchPostgres {
  private postmaster: Postmaster | undefined;

  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly password: string,
    private readonly bin: Binaries,
    private readonly runAs: RunAs | undefined,
  ) {}

  static async create(): Promise<ScratchPostgres> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-scratch-pg-'));
    await fs.chmod(dir, 0o755);
    const bin = await binaries();
    const runAs = runAsUser();
    const password = 'scratch-password';
    await initCluster(path.join(dir, 'cluster'), password, bin, runAs);
    const pg = new ScratchPostgres(dir, await freePort(), password, bin, runAs);
    await pg.start();
    return pg;
  }

  /** The superuser's URL of `database` (default: the maintenance database). */
  url(database = 'postgres'): string {
    return `postgres://${DB_USER}:${this.password}@127.0.0.1:${this.port}/${database}`;
  }

  get pid(): number | undefined {
    return this.postmaster?.child.pid;
  }

  /**
   * Starts the postmaster, retrying for up to `ms`: after a kill -9 its orphaned backends
   * hold the shared memory until they notice and exit, and PostgreSQL refuses to start
   * until then.
   */
  async start(ms = 60_000): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      try {
        this.postmaster = await startPostmaster({
          cluster: path.join(this.dir, 'cluster'),
          port: this.port,
          bin: this.bin,
          runAs: this.runAs,
          adminUrl: this.url(),
        });
        return;
      } catch (err) {
        if (Date.now() >= deadline) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  /** SIGKILL to the postmaster, as the OOM killer or `kill -9` would; resolves once it is gone. */
  async kill9(): Promise<void> {
    const pm = this.postmaster;
    if (!pm || pm.exited) return;
    pm.child.kill('SIGKILL');
    await pm.exit;
  }

  /** Stops the server and removes its data. */
  async destroy(): Promise<void> {
    await this.postmaster?.stop().catch(() => {});
    await fs.rm(this.dir, { recursive: true, force: true });
  }
}
