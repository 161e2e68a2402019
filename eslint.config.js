import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const root = import.meta.dirname;

/** The folders directly under `dir` (none when it is missing): each one is a zone. */
function foldersOf(dir) {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return fs
    .readdirSync(abs, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * The web app's layers (docs/architecture.md, Rules between the rooms), zones built from the
 * folder listing so a new feature or screen is covered the day its folder appears: a feature
 * never imports another feature or a screen; a screen composes features but never another
 * screen; `api/` imports only `lib/` and the contract; `components/` and `lib/` stay
 * domain-free; `app/` may import anything.
 */
function webZones(src) {
  const features = foldersOf(`${src}/features`);
  const screens = foldersOf(`${src}/screens`);
  return [
    ...features.map((f) => ({
      target: `./${src}/features/${f}`,
      from: `./${src}/features`,
      except: [`./${f}`],
      message: 'A feature never imports another feature: compose them in a screen.',
    })),
    {
      target: `./${src}/features`,
      from: `./${src}/screens`,
      message: 'A feature never imports a screen.',
    },
    ...screens.map((s) => ({
      target: `./${src}/screens/${s}`,
      from: `./${src}/screens`,
      except: [`./${s}`],
      message:
        'A screen never imports another screen: share through features, api/ or components/.',
    })),
    {
      target: `./${src}/api`,
      from: [`./${src}/app`, `./${src}/screens`, `./${src}/features`, `./${src}/components`],
      message: 'api/ imports only lib/ and the contract.',
    },
    {
      target: [`./${src}/components`, `./${src}/lib`],
      from: [`./${src}/app`, `./${src}/screens`, `./${src}/features`, `./${src}/api`],
      message: 'components/ and lib/ are domain-free: they import no feature, screen, api or app.',
    },
  ];
}

/**
 * Server modules reach each other through their public face only: a module imports another
 * module's `index.ts` or one of the `*.service.ts` files at its top level, never its repo, routes
 * or internals (a module split into sub-folders shows them through its `index.ts`). Type imports
 * follow the same rule, so a module's face is one place to read: the `index.ts` re-exports the
 * types others need. A test may also use another module's test fixtures (they make its rows).
 * Zones built from the listing of `modules/`, so a new module is covered the day it appears.
 */
function serverZones(src, { tests = false } = {}) {
  const modules = foldersOf(`${src}/modules`);
  const repos = (of) => of.map((o) => `./${src}/modules/${o}/**/*.repo.ts`);
  const outside = foldersOf(src).filter((f) => f !== 'modules');
  // Exceptions to a glob zone are globs matched against absolute paths.
  const face = [
    'index.ts',
    '*.service.ts',
    ...(tests ? ['**/*.test-fixtures.ts', '**/test-fixtures.ts'] : []),
  ].map((f) => path.join(root, src, 'modules', '*', f));
  return [
    ...modules.map((m) => ({
      target: `./${src}/modules/${m}`,
      from: modules.filter((o) => o !== m).map((o) => `./${src}/modules/${o}/**`),
      except: face,
      message: "A module uses another module's index.ts or service, never its repo or other files.",
    })),
    // Jobs, plugins and the rest reach a module through its service too.
    ...outside.map((f) => ({
      target: `./${src}/${f}`,
      from: repos(modules),
      message: "Code outside a module uses the module's service, never its repo.",
    })),
  ].filter((zone) => zone.from.length > 0);
}

/**
 * The boundary rules for one source tree. The lint fixtures are trees of the same shape, run
 * through these same rules by lint-fixtures/boundaries.test.ts and left out of `npm run lint`.
 */
const boundaries = (src, zones) => ({
  files: [`${src}/**/*.{ts,tsx}`],
  rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones }] },
});

const WEB_SOURCES = ['apps/web/src', 'lint-fixtures/web/src'];
const SERVER_SOURCES = ['apps/server/src', 'lint-fixtures/server/src'];
const TEST_FILES = ['**/*.test.ts', '**/*.test-fixtures.ts', '**/test-fixtures.ts'];

/**
 * SQL lives in repo files: a module's statements in its `*.repo.ts` files, and the fragments
 * (expressions, subqueries) repo files compose in `*.sql.ts` files beside them. Two folders may
 * hold SQL as well: `src/db/`, the database layer itself (pool, migrations, embedded server, app
 * role, COPY helper), and `src/policies/`, whose scope filters are fragments every repo applies.
 * Tests and their fixtures write rows directly. Anywhere else, kysely's `sql` tag, a statement
 * builder or a driver's `.query()` is an error.
 */
const SQL_ONLY_IN_REPOS = 'SQL lives in *.repo.ts files (fragments in *.sql.ts): move it there.';
const sqlOutsideRepos = (src) => ({
  files: [`${src}/**/*.ts`],
  ignores: ['**/*.repo.ts', '**/*.sql.ts', `${src}/db/**`, `${src}/policies/**`, ...TEST_FILES],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector:
          "ImportDeclaration[source.value='kysely'][importKind!='type'] > ImportSpecifier[imported.name='sql'][importKind!='type']",
        message: SQL_ONLY_IN_REPOS,
      },
      {
        selector:
          'CallExpression > MemberExpression.callee[property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|query)$/]',
        message: SQL_ONLY_IN_REPOS,
      },
    ],
  },
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '.test-output/**',
      '**/.out/**',
      // Bad examples on purpose: linted only by their own test.
      'lint-fixtures/web/**',
      'lint-fixtures/server/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      // Which files the import rules read for their exports and imports (no-cycle follows them).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // The sources import TypeScript files by their `.js` names (and the web app without an
      // extension), so the import rules resolve both to the `.ts`/`.tsx` file on disk.
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: [
      'packages/contract/src/**/*.ts',
      ...[...WEB_SOURCES, ...SERVER_SOURCES].map((src) => `${src}/**/*.{ts,tsx}`),
    ],
    // Type-only imports vanish at build time, so only value imports can close a cycle.
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  ...WEB_SOURCES.map((src) => boundaries(src, webZones(src))),
  ...SERVER_SOURCES.flatMap((src) => [
    { ...boundaries(src, serverZones(src)), ignores: TEST_FILES },
    {
      ...boundaries(src, serverZones(src, { tests: true })),
      files: TEST_FILES.map((t) => `${src}/${t}`),
    },
  ]),
  ...SERVER_SOURCES.map(sqlOutsideRepos),
);
