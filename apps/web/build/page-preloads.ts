import type { Plugin } from 'vite';

// Page files with the first chunks of their page named in the HTML (docs/performance.md, Page
// speed). Every path gets the same index.html, whose entry fetches the page's chunk only once it
// has arrived and run: one more round trip of a slow phone link before anything shows. The
// build also writes a copy per kind of page with <link rel="modulepreload"> for that page's
// chunks, so the browser fetches them alongside the entry; the server picks the copy by path.

/** The copies the build writes: a file name and the module whose chunks it preloads. */
export const PAGE_FILES = [
  { file: 'login.html', module: 'src/features/auth/login-page.tsx' },
  { file: 'app.html', module: 'src/app/app-routes.tsx' },
] as const;

/** What the plugin reads of an output chunk (Rollup's and Rolldown's OutputChunk). */
export interface ChunkLike {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}
export interface AssetLike {
  type: 'asset';
  fileName: string;
  source: string | Uint8Array;
}
export type BundleLike = Record<string, ChunkLike | AssetLike>;

/** `start` and every chunk it imports statically, in no particular order. */
function staticClosure(bundle: BundleLike, start: string): Set<string> {
  const seen = new Set<string>();
  const todo = [start];
  while (todo.length > 0) {
    const name = todo.pop()!;
    const chunk = bundle[name];
    if (seen.has(name) || chunk?.type !== 'chunk') continue;
    seen.add(name);
    todo.push(...chunk.imports);
  }
  return seen;
}

/**
 * The JS and CSS files a page's module needs beyond what the HTML already loads (the entry and
 * its static imports), or null when no chunk has that module (a renamed file: then the page
 * simply has no copy, and the server sends index.html).
 */
export function pagePreloads(
  bundle: BundleLike,
  moduleSuffix: string,
): { js: string[]; css: string[] } | null {
  const chunks = Object.values(bundle).filter((c): c is ChunkLike => c.type === 'chunk');
  const page = chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(moduleSuffix));
  if (!page) return null;
  const loaded = new Set<string>();
  for (const entry of chunks.filter((c) => c.isEntry)) {
    for (const name of staticClosure(bundle, entry.fileName)) loaded.add(name);
  }
  const js = [...staticClosure(bundle, page.fileName)].filter((n) => !loaded.has(n)).sort();
  const css = new Set<string>();
  for (const name of js) {
    const chunk = bundle[name];
    if (chunk?.type === 'chunk') for (const f of chunk.viteMetadata?.importedCss ?? []) css.add(f);
  }
  return { js, css: [...css].sort() };
}

/** `html` with preload links for `files` before `</head>` (paths from the site's root). */
export function withPreloads(html: string, files: { js: string[]; css: string[] }): string {
  const links = [
    ...files.js.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
    ...files.css.map((f) => `<link rel="preload" as="style" crossorigin href="/${f}">`),
  ];
  if (!html.includes('</head>')) throw new Error('page-preloads: index.html has no </head>');
  return html.replace(
    /( *)<\/head>/,
    (end, indent: string) => links.map((l) => `${indent}  ${l}\n`).join('') + end,
  );
}

/** The Vite plugin: after Vite has written index.html into the bundle, adds the copies. */
export function pagePreloadsPlugin(): Plugin {
  return {
    name: 'herald-page-preloads',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const files = bundle as unknown as BundleLike;
      const index = files['index.html'];
      if (index?.type !== 'asset') return;
      const html =
        typeof index.source === 'string' ? index.source : new TextDecoder().decode(index.source);
      for (const page of PAGE_FILES) {
        const preloads = pagePreloads(files, page.module);
        if (!preloads) continue;
        this.emitFile({ type: 'asset', fileName: page.file, source: withPreloads(html, preloads) });
      }
    },
  };
}
