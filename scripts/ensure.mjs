// Installs what the app and its tests need when it is missing: npm packages and Debian's
// Chromium (for browser tests). Used by `npm start` and `npm test`; no dependencies of its own.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(cmd, opts = {}) {
  console.log(`\n$ ${cmd}`);
  execSync(cmd, { stdio: 'inherit', cwd: root, ...opts });
}

/**
 * Installs from package-lock.json when node_modules is missing or older than it. `npm install`
 * rather than `npm ci`: npm 11's ci rejects lockfiles whose unavailable optional platform
 * packages (for other operating systems) have no entry, though it installs the same versions.
 */
export function ensureNodeModules() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  const stale =
    !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
  if (!stale) return;
  run('npm install --no-audit --no-fund');
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium for the browser tests (Playwright cannot download browsers here). */
export function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium).`,
    );
  }
  run('apt-get update -qq', { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run('apt-get install -y -qq chromium', {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
