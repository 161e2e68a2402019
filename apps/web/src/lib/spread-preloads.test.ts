import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A lazily loaded module's path is written twice at its call site: in `import()`, which must be
// a literal for the bundler to follow, and as the key of its chunk list (lib/spread-preloads.ts).
// A key that names another module would silently lose the spreading, so this reads every call
// site in the sources and holds the two to the same module.

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.tsx?$/.test(e.name) && !e.name.includes('.test.') ? [full] : [];
  });
}

/** Each `lazyNamed(...)` or `screen(...)` call's text, up to its closing `);`. */
function calls(text: string): string[] {
  return [
    ...text.matchAll(/\b(?:lazyNamed|screen)\(\s*(?:'[^']*',\s*)?\(\) => import\([\s\S]*?\n?\);/g),
  ].map((m) => m[0]);
}

describe('the module keys of lazily loaded components', () => {
  const sites = sources(SRC).flatMap((file) =>
    calls(fs.readFileSync(file, 'utf8')).map((call) => ({ file, call })),
  );
  const keyed = sites.filter(({ call }) => /'[\w-]+(?:\/[\w-]+)+'/.test(call));

  it('are found where the screens and the create form are loaded', () => {
    expect(keyed.length).toBeGreaterThanOrEqual(19);
  });

  it.each(keyed.map(({ file, call }) => [path.relative(SRC, file), file, call] as const))(
    '%s: the key names the module its import() loads',
    (_name, file, call) => {
      const imported = /import\('([^']+)'\)/.exec(call)![1]!;
      const key = /'((?:[\w-]+\/)+[\w-]+)'/.exec(call.replace(/import\('[^']+'\)/, ''))![1]!;
      const target = path.relative(SRC, path.resolve(path.dirname(file), imported));
      expect(key).toBe(target.split(path.sep).join('/'));
    },
  );
});
