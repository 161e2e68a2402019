import { describe, expect, it } from 'vitest';
import { compile } from 'sass';
import { cssClasses, usedBootstrapClasses } from './used-classes';

const sources = import.meta.glob<string>(
  ['../**/*.ts', '../**/*.tsx', '!../**/*.test.ts', '!./**'],
  {
    query: '?raw',
    import: 'default',
    eager: true,
  },
);

const nodeModules = new URL('../../../../node_modules', import.meta.url).pathname;

/** A style sheet compiled as Vite does (vite.config.ts css.preprocessorOptions). */
function compiled(file: string): string {
  return compile(file, {
    loadPaths: [nodeModules],
    quietDeps: true,
    silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'],
  }).css;
}

describe('styles/bootstrap.scss', () => {
  const full = cssClasses(compiled(`${nodeModules}/bootstrap/scss/bootstrap.scss`));
  const ours = cssClasses(compiled(new URL('./bootstrap.scss', import.meta.url).pathname));
  const { used, unknownDynamic } = usedBootstrapClasses(sources, full);

  it('reads the sources and finds the classes they use', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(100);
    for (const cls of ['d-flex', 'mb-3', 'btn-outline-secondary', 'col-md-6', 'alert-danger']) {
      expect(used.has(cls), cls).toBe(true);
    }
  });

  it('has every Bootstrap class the sources and react-bootstrap use', () => {
    const missing = [...used].filter(([cls]) => !ours.has(cls)).map(([c, f]) => `${c} (${f})`);
    expect(missing).toEqual([]);
  });

  it('meets no class built from a prefix it cannot check', () => {
    expect(unknownDynamic).toEqual([]);
  });

  it('leaves out most of Bootstrap', () => {
    expect(ours.size).toBeLessThan(full.size / 2);
  });
});
