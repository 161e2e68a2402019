// `npm test`: every check and every test, exiting non-zero on any failure.
// Format, lint, types; server tests on the embedded PostgreSQL and the local file storage (and
// again on TEST_DATABASE_URL when set, that time with every file in S3-compatible storage on
// loopback); contract and web unit tests; then a build and the browser tests in Chromium.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureChromium, ensureNodeModules, root, run } from './ensure.mjs';

ensureNodeModules();
ensureChromium();

const out = path.join(root, '.test-output');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

let passed = 0;
let failed = 0;
const problems = [];
/** Each failed test by name, printed again at the end, where a CI log's tail shows it. */
const failures = [];

function step(name, cmd, env = {}) {
  try {
    run(cmd, { env: { ...process.env, ...env } });
    return true;
  } catch {
    problems.push(name);
    return false;
  }
}

function vitest(name, config, env = {}) {
  const file = path.join(out, `${name}.json`);
  const cmd = `npx vitest run --config ${config} --reporter=default --reporter=json --outputFile.json=${file}`;
  step(name, cmd, env);
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    const firstLine = (text) => String(text ?? '').split('\n')[0];
    for (const suite of report.testResults ?? []) {
      const where = path.relative(root, suite.name);
      for (const t of suite.assertionResults ?? []) {
        if (t.status !== 'failed') continue;
        failures.push(`${name}: ${where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
      }
      if (suite.status === 'failed' && !(suite.assertionResults ?? []).length) {
        failures.push(`${name}: ${where}: ${firstLine(suite.message) || 'failed to run'}`);
      }
    }
  } catch {
    failed += 1;
    if (!problems.includes(name)) problems.push(name);
  }
}

step('format', 'npx prettier --check .');
step('lint', 'npx eslint . --max-warnings 0');
step('typecheck', 'npm run typecheck');
vitest('unit', 'vitest.unit.config.ts');
vitest('server-embedded', 'apps/server/vitest.config.ts', { TEST_DATABASE_URL: '' });
if (process.env.TEST_DATABASE_URL) {
  console.log(
    `\nServer tests again on ${process.env.TEST_DATABASE_URL.replace(/:[^:@/]*@/, ':***@')}` +
      ', with files in S3 storage',
  );
  vitest('server-external', 'apps/server/vitest.config.ts', { TEST_STORAGE: 's3' });
}
if (step('build', 'npm run build')) vitest('e2e', 'e2e/vitest.config.ts');
else failed += 1;

console.log('');
if (failures.length) console.log(`Failed tests:\n  ${failures.join('\n  ')}`);
if (problems.length) console.log(`Failed steps: ${problems.join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(problems.length || failed ? 1 : 0);
