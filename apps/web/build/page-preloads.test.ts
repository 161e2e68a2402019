import { describe, expect, it } from 'vitest';
import {
  chunkDeps,
  pagePreloads,
  withChunkDeps,
  withPreloads,
  type BundleLike,
  type ChunkLike,
} from './page-preloads';

function chunk(fileName: string, imports: string[], extra: Partial<ChunkLike> = {}): ChunkLike {
  return { type: 'chunk', fileName, isEntry: false, facadeModuleId: null, imports, ...extra };
}

// The shape of a real build: the entry and a chunk it imports, the app's chunk importing one of
// those and two of its own, one with its CSS, and a screen the app imports only dynamically.
const bundle: BundleLike = {
  'assets/index-a.js': chunk('assets/index-a.js', ['assets/react-b.js'], {
    isEntry: true,
    facadeModuleId: '/repo/apps/web/index.html',
  }),
  'assets/react-b.js': chunk('assets/react-b.js', []),
  'assets/app-routes-c.js': chunk(
    'assets/app-routes-c.js',
    ['assets/react-b.js', 'assets/modal-d.js', 'assets/query-e.js'],
    { facadeModuleId: '/repo/apps/web/src/app/app-routes.tsx' },
  ),
  'assets/modal-d.js': chunk('assets/modal-d.js', ['assets/query-e.js'], {
    viteMetadata: { importedCss: new Set(['assets/modal-f.css']) },
  }),
  'assets/query-e.js': chunk('assets/query-e.js', []),
  'assets/screen-g.js': chunk('assets/screen-g.js', ['assets/query-e.js'], {
    facadeModuleId: 'C:\\repo\\apps\\web\\src\\features\\screen.tsx',
  }),
  'index.html': { type: 'asset', fileName: 'index.html', source: '' },
};

describe('pagePreloads', () => {
  it("lists the page's chunks and their CSS, without what the entry already loads", () => {
    expect(pagePreloads(bundle, 'src/app/app-routes.tsx')).toEqual({
      js: ['assets/app-routes-c.js', 'assets/modal-d.js', 'assets/query-e.js'],
      css: ['assets/modal-f.css'],
    });
  });

  it('finds a module by a path written with either separator', () => {
    expect(pagePreloads(bundle, 'src/features/screen.tsx')?.js).toEqual([
      'assets/query-e.js',
      'assets/screen-g.js',
    ]);
  });

  it('gives nothing for a module no chunk has', () => {
    expect(pagePreloads(bundle, 'src/app/gone.tsx')).toBeNull();
  });
});

describe('withPreloads', () => {
  const html = [
    '<!doctype html>',
    '<html>',
    '  <head>',
    '    <script type="module" crossorigin src="/assets/index-a.js"></script>',
    '  </head>',
    '  <body></body>',
    '</html>',
  ].join('\n');

  it('adds the links at the end of the head, at its indentation', () => {
    expect(withPreloads(html, { js: ['assets/a.js'], css: ['assets/b.css'] })).toBe(
      [
        '<!doctype html>',
        '<html>',
        '  <head>',
        '    <script type="module" crossorigin src="/assets/index-a.js"></script>',
        '    <link rel="modulepreload" crossorigin href="/assets/a.js">',
        '    <link rel="preload" as="style" crossorigin href="/assets/b.css">',
        '  </head>',
        '  <body></body>',
        '</html>',
      ].join('\n'),
    );
  });

  it('refuses a page without a head', () => {
    expect(() => withPreloads('<p>no head</p>', { js: [], css: [] })).toThrow(/no <\/head>/);
  });
});

describe('chunkDeps', () => {
  // The entry imports react; the app (loaded with import()) shares a chunk with a screen, which
  // is also loaded with import(); a module outside src/ is left out.
  const dynamic: BundleLike = {
    'assets/index-a.js': chunk('assets/index-a.js', ['assets/react-b.js'], {
      isEntry: true,
      facadeModuleId: '/repo/apps/web/index.html',
    }),
    'assets/react-b.js': chunk('assets/react-b.js', []),
    'assets/app-routes-c.js': chunk(
      'assets/app-routes-c.js',
      ['assets/react-b.js', 'assets/q.js'],
      {
        isDynamicEntry: true,
        facadeModuleId: '/repo/apps/web/src/app/app-routes.tsx',
      },
    ),
    'assets/q.js': chunk('assets/q.js', []),
    'assets/screen-d.js': chunk('assets/screen-d.js', ['assets/q.js', 'assets/form-e.js'], {
      isDynamicEntry: true,
      facadeModuleId: 'C:\\repo\\apps\\web\\src\\features\\x\\screen.tsx',
    }),
    'assets/form-e.js': chunk('assets/form-e.js', ['assets/react-b.js']),
    'assets/worker-f.js': chunk('assets/worker-f.js', [], {
      isDynamicEntry: true,
      facadeModuleId: '/repo/node_modules/lib/worker.js',
    }),
  };

  it("lists each lazily loaded module's chunks beyond the entry's, each file once", () => {
    const posix = chunkDeps(dynamic, '/repo/apps/web/src/');
    expect(posix).toEqual({
      files: ['assets/app-routes-c.js', 'assets/q.js'],
      modules: { 'app/app-routes': [0, 1] },
    });
    const windows = chunkDeps(dynamic, 'C:/repo/apps/web/src/');
    expect(windows).toEqual({
      files: ['assets/form-e.js', 'assets/q.js', 'assets/screen-d.js'],
      modules: { 'features/x/screen': [0, 1, 2] },
    });
  });
});

describe('withChunkDeps', () => {
  it('puts the lists in a JSON block at the end of the body, with no way to end it early', () => {
    const html = '<html>\n  <head></head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>';
    const out = withChunkDeps(html, { files: ['assets/</script>.js'], modules: { a: [0] } });
    expect(out).toBe(
      [
        '<html>',
        '  <head></head>',
        '  <body>',
        '    <div id="root"></div>',
        '    <script type="application/json" id="chunk-deps">' +
          '{"files":["assets/\\u003c/script>.js"],"modules":{"a":[0]}}</script>',
        '  </body>',
        '</html>',
      ].join('\n'),
    );
    const json = /<script[^>]*>(.*)<\/script>/.exec(out)?.[1] ?? '';
    expect(JSON.parse(json)).toEqual({ files: ['assets/</script>.js'], modules: { a: [0] } });
  });
});
