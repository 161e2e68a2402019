import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The boundary rules of eslint.config.js, run on trees of bad and good examples shaped like
 * the web app and the server. Each fixture file either breaks exactly the rules listed for it
 * or is clean, so a rule that stops reporting (or starts reporting on good code) fails here.
 */

const root = path.resolve(import.meta.dirname, '..');
const ZONES = 'import-x/no-restricted-paths';
const CYCLE = 'import-x/no-cycle';
const SQL = 'no-restricted-syntax';

const EXPECTED: Record<string, string[]> = {
  'web/src/features/alpha/alpha-page.ts': [ZONES],
  'web/src/features/alpha/alpha-screen-link.ts': [ZONES],
  'web/src/features/alpha/alpha-ping.ts': [CYCLE],
  'web/src/features/alpha/alpha-pong.ts': [CYCLE],
  'web/src/features/beta/beta-list.ts': [],
  'web/src/features/beta/beta-row.ts': [],
  'web/src/screens/combo/combo-page.ts': [],
  'web/src/screens/solo/solo-page.ts': [],
  'web/src/screens/solo/solo-combo.ts': [ZONES],
  'web/src/api/beta/get-beta.ts': [],
  'web/src/api/beta/use-feature.ts': [ZONES],
  'web/src/components/card.ts': [],
  'web/src/components/feature-card.ts': [ZONES],
  'web/src/lib/format.ts': [],
  'web/src/lib/screen-title.ts': [ZONES],
  'web/src/app/router.ts': [],
  'server/src/modules/alpha/alpha.repo.ts': [],
  'server/src/modules/alpha/alpha.service.ts': [],
  'server/src/modules/alpha/alpha-format.ts': [],
  'server/src/modules/alpha/alpha-ids.sql.ts': [],
  'server/src/modules/alpha/index.ts': [],
  'server/src/modules/alpha/inner/alpha-inner.service.ts': [],
  'server/src/modules/beta/beta.service.ts': [],
  'server/src/modules/beta/beta.routes.ts': [ZONES],
  'server/src/modules/beta/beta-face.ts': [],
  'server/src/modules/beta/beta-internals.ts': [ZONES],
  'server/src/modules/beta/beta-subroom.ts': [ZONES],
  'server/src/modules/beta/beta-types.ts': [ZONES],
  'server/src/modules/beta/beta-ping.ts': [CYCLE],
  'server/src/modules/beta/beta-pong.ts': [CYCLE],
  'server/src/modules/beta/beta-sql.ts': [SQL, SQL],
  'server/src/modules/beta/beta-types-only.ts': [],
  'server/src/modules/alpha/alpha.test-fixtures.ts': [],
  'server/src/modules/beta/beta.test.ts': [],
  'server/src/modules/beta/beta-fixture-use.ts': [ZONES],
  'server/src/jobs/alpha-job.ts': [ZONES],
  'server/src/jobs/beta-job.ts': [],
  'server/src/jobs/gamma-job.ts': [SQL],
  'server/src/db/pool.ts': [],
};

let eslint: ESLint;
const found = new Map<string, ESLint.LintResult>();

beforeAll(async () => {
  eslint = new ESLint({ cwd: root, ignore: false });
  const results = await eslint.lintFiles(['lint-fixtures/web', 'lint-fixtures/server']);
  for (const r of results) {
    found.set(path.relative(path.join(root, 'lint-fixtures'), r.filePath), r);
  }
}, 60_000);

describe('lint fixtures', () => {
  it('every fixture file has an expectation', () => {
    expect([...found.keys()].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s reports %j', (file, rules) => {
    const result = found.get(file);
    expect(result, file).toBeDefined();
    const reported = result!.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
    expect(reported).toEqual(rules);
  });

  it('names the boundary a bad import crosses', () => {
    const messageOf = (file: string) => found.get(file)?.messages[0]?.message ?? '';
    expect(messageOf('web/src/features/alpha/alpha-page.ts')).toContain(
      'A feature never imports another feature',
    );
    expect(messageOf('server/src/modules/beta/beta.routes.ts')).toContain(
      "A module uses another module's index.ts or service, never its repo or other files",
    );
    expect(messageOf('server/src/modules/beta/beta-sql.ts')).toContain(
      'SQL lives in *.repo.ts files',
    );
  });
});

describe('zones come from the folder listing', () => {
  const folders = (dir: string) =>
    fs
      .readdirSync(path.join(root, dir), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);

  async function zoneTargets(file: string): Promise<string[]> {
    const config = (await eslint.calculateConfigForFile(path.join(root, file))) as {
      rules: Record<string, [unknown, { zones: { target: string | string[] }[] }]>;
    };
    return config.rules[ZONES]![1].zones.flatMap((z) => z.target);
  }

  it('every web feature folder is a zone', async () => {
    const targets = await zoneTargets('apps/web/src/features/any/file.ts');
    const features = folders('apps/web/src/features');
    expect(features.length).toBeGreaterThan(0);
    for (const f of features) expect(targets).toContain(`./apps/web/src/features/${f}`);
  });

  it.each(['file.ts', 'file.test.ts', 'file.test-fixtures.ts'])(
    'every server module folder is a zone, for a %s',
    async (name) => {
      const targets = await zoneTargets(`apps/server/src/modules/any/${name}`);
      const modules = folders('apps/server/src/modules');
      expect(modules.length).toBeGreaterThan(1);
      for (const m of modules) expect(targets).toContain(`./apps/server/src/modules/${m}`);
    },
  );
});
