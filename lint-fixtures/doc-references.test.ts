import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type DocsIndex, anchorOf, findReferenceProblems, headingsOf } from './doc-references.js';

/**
 * Every reference in the repository can be followed with the clone alone: no citation of a
 * document kept elsewhere or of an issue number, and every `docs/<name>.md#anchor` exists.
 * The fixtures prove the check can fail (each flagged line must be reported) and that it leaves
 * honest lines alone.
 */

const root = path.resolve(import.meta.dirname, '..');
const FIXTURES = 'lint-fixtures/doc-references';
/** The check and its fixtures spell out what they look for. */
const SKIPPED = new Set([
  'package-lock.json',
  'lint-fixtures/doc-references.ts',
  'lint-fixtures/doc-references.test.ts',
]);
const BINARY = /\.(png|jpe?g|gif|webp|ico|pdf|zip|xlsx?|docx?|mp[34]|ogg|wav|woff2?|ttf|eot|gz)$/i;

/** Tracked files, and new ones not ignored, so a file is checked before its first commit. */
function repositoryFiles(): string[] {
  const out = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return [...new Set(out.split('\0').filter(Boolean))].sort();
}

function readText(file: string): string | null {
  const abs = path.join(root, file);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isFile()) return null;
  const bytes = fs.readFileSync(abs);
  return bytes.includes(0) ? null : bytes.toString('utf8');
}

function docsOfRepository(): DocsIndex {
  const dir = path.join(root, 'docs');
  const index = new Map<string, ReturnType<typeof headingsOf>>();
  if (!fs.existsSync(dir)) return index;
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.md'))) {
    index.set(name, headingsOf(fs.readFileSync(path.join(dir, name), 'utf8')));
  }
  return index;
}

/** The fixtures' own docs/ folder, so they do not depend on the real documents' wording. */
const FIXTURE_DOCS: DocsIndex = new Map([
  ['architecture.md', headingsOf('# Architecture\n## Rules between the rooms\n## Delivery\n')],
  ['performance.md', headingsOf('# Performance\n## Backup rate\n## Login CSS\n')],
  ['product.md', headingsOf('# Product\n## Roles and scope\n## Credits and the ledger\n')],
]);

function fixtureLines(name: string): string[] {
  const text = fs.readFileSync(path.join(root, FIXTURES, name), 'utf8');
  return text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('##'));
}

describe('references to documents', () => {
  it.each(fixtureLines('flagged.txt'))('flags: %s', (line) => {
    expect(findReferenceProblems('src/example.ts', line, FIXTURE_DOCS)).not.toEqual([]);
  });

  it.each(fixtureLines('passing.txt'))('passes: %s', (line) => {
    expect(findReferenceProblems('src/example.ts', line, FIXTURE_DOCS)).toEqual([]);
  });

  it('resolves relative links inside docs/ and flags a missing one', () => {
    const ok = 'See [the targets](performance.md#login-css) and [rooms](architecture.md).';
    expect(findReferenceProblems('docs/operations.md', ok, FIXTURE_DOCS)).toEqual([]);
    const bad = 'See [the runbook](runbook.md) and [a target](performance.md#no-such-target).';
    expect(findReferenceProblems('docs/operations.md', bad, FIXTURE_DOCS)).toHaveLength(2);
    // Outside docs/ the same relative name is a bare citation.
    expect(findReferenceProblems('README.md', ok, FIXTURE_DOCS)).not.toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    expect(anchorOf('Credits and the ledger')).toBe('credits-and-the-ledger');
    expect(anchorOf('Login CSS')).toBe('login-css');
    expect(anchorOf('Roles, scope & who sees whom')).toBe('roles-scope--who-sees-whom');
  });

  it('finds none in the repository', () => {
    const docs = docsOfRepository();
    const found: string[] = [];
    for (const file of repositoryFiles()) {
      if (SKIPPED.has(file) || file.startsWith(`${FIXTURES}/`) || BINARY.test(file)) continue;
      const text = readText(file);
      if (text === null) continue;
      for (const p of findReferenceProblems(file, text, docs)) {
        found.push(`${file}:${p.line}: ${p.reason}: ${p.text.trim()}`);
      }
    }
    expect(found, `${found.length} references a clone cannot follow:\n${found.join('\n')}`).toEqual(
      [],
    );
  });
});
