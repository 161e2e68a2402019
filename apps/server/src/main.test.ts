import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './db/embedded-postgres.js';

/**
 * The process as `npm start` runs it, on the embedded PostgreSQL: killed with SIGKILL while it
 * serves, started again on the same DATA_DIR, it comes up with every committed user.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children: ChildProcess[] = [];
let dataDir = '';

async function startServer(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: 'root@test.local',
      ADMIN_PASSWORD: 'root-password-1',
      PASSWORD_HASH_COST: '12',
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return { child, output: () => out };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy: ${out}`);
}

async function post(port: number, url: string, body: unknown, token?: string) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (dataDir && existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

describe('server process', () => {
  it('survives SIGKILL with every committed user, and stops cleanly on SIGTERM', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-restart-'));
    await fs.chmod(dataDir, 0o755);
    const port1 = await freePort();
    const first = await startServer(port1);
    expect(first.output()).toContain('First Admin created: root@test.local');

    const login = await post(port1, '/api/login', {
      email: 'root@test.local',
      password: 'root-password-1',
    });
    expect(login.status).toBe(200);
    const created = await post(
      port1,
      '/api/users',
      { name: 'Kept', email: 'kept@test.local', password: 'kept-password-1', role: 'Reseller' },
      login.body.token as string,
    );
    expect(created.status).toBe(201);

    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const port2 = await freePort();
    const second = await startServer(port2);
    expect(second.output()).not.toContain('First Admin created');
    const again = await post(port2, '/api/login', {
      email: 'kept@test.local',
      password: 'kept-password-1',
    });
    expect(again.status).toBe(200);

    second.child.kill('SIGTERM');
    const code = await new Promise((r) => second.child.once('exit', r));
    expect(code).toBe(0);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 240_000);
});
