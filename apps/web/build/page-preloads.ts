import path from 'node:path';
import type { Plugin } from 'vite';
import { CHUNK_DEPS_ID, type ChunkDeps } from '../src/lib/chunk-deps';

// Page files with the first chunks of their page named in the HTML (docs/performance.md, Page
// speed). Every path gets the same index.html, whose entry fetches the page's chunk only once it
// has arrived and run: one more round trip of a slow phone link before anything shows. The
// build also writes a copy per kind of page with <link rel="modulepreload"> for that page's
// chunks, so the browser fetches them alongside the entry; the server picks the copy by path.
//
// Every page also lists, in a JSON block, the chunks of each module the app loads later with
// import(), for lib/spread-preloads.ts to name a few per task: Vite's own preload adds a link
// for each of a module's chunks in one task (33 for the campaign screen, 40-55 ms on a desktop
// CPU), and it leaves out the links that are already in the page.

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
  isDynamicEntry?: boolean;
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

const chunksOf = (bundle: BundleLike) =>
  Object.values(bundle).filter((c): c is ChunkLike => c.type === 'chunk');
const moduleIdOf = (chunk: ChunkLike) => chunk.facadeModuleId?.replaceAll('\\', '/') ?? '';

/** The entries' chunks and all they import statically: what every page has loaded. */
function entryClosure(bundle: BundleLike): Set<string> {
  const loaded = new Set<string>();
  for (const entry of chunksOf(bundle).filter((c) => c.isEntry)) {
    for (const name of staticClosure(bundle, entry.fileName)) loaded.add(name);
  }
  return loaded;
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
  const page = chunksOf(bundle).find((c) => moduleIdOf(c).endsWith(moduleSuffix));
  if (!page) return null;
  const loaded = entryClosure(bundle);
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

/**
 * For every module under `srcDir` (an absolute path with `/` separators, ending in `/`) that is
 * loaded with `import()`, the JS chunks it needs that the entry has not loaded: its own and those
 * it imports statically.
 */
export function chunkDeps(bundle: BundleLike, srcDir: string): ChunkDeps {
  const loaded = entryClosure(bundle);
  const files: string[] = [];
  const index = new Map<string, number>();
  const modules: Record<string, number[]> = {};
  const dynamic = chunksOf(bundle).filter((c) => c.isDynamicEntry && !c.isEntry);
  for (const chunk of dynamic.sort((a, b) => moduleIdOf(a).localeCompare(moduleIdOf(b)))) {
    const id = moduleIdOf(chunk);
    if (!id.startsWith(srcDir)) continue;
    const key = id.slice(srcDir.length).replace(/\.[cm]?[jt]sx?$/, '');
    const needed = [...staticClosure(bundle, chunk.fileName)].filter((n) => !loaded.has(n));
    if (needed.length === 0) continue;
    modules[key] = needed.sort().map((name) => {
      let i = index.get(name);
      if (i === undefined) {
        i = files.push(name) - 1;
        index.set(name, i);
      }
      return i;
    });
  }
  return { files, modules };
}

/**
 * `html` with `deps` in a JSON data block at the end of its body (after the links the browser
 * should see first; the entry runs only once the page is parsed). A data block is not a script,
 * so the CSP's `script-src` has no say.
 */
export function withChunkDeps(html: string, deps: ChunkDeps): string {
  if (!html.includes('</body>')) throw new Error('page-preloads: index.html has no </body>');
  // `<` escaped, so no file name could end the block early.
  const json = JSON.stringify(deps).replaceAll('<', '\\u003c');
  const block = `<script type="application/json" id="${CHUNK_DEPS_ID}">${json}</script>`;
  return html.replace(/( *)<\/body>/, (end, indent: string) => `${indent}  ${block}\n${end}`);
}

/**
 * The Vite plugin: after Vite has written index.html into the bundle, lists the lazily loaded
 * modules' chunks in it and adds the copies.
 */
export function pagePreloadsPlugin(): Plugin {
  let srcDir = '';
  return {
    name: 'herald-page-preloads',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      srcDir = `${path.join(config.root, 'src').replaceAll('\\', '/')}/`;
    },
    generateBundle(_options, bundle) {
      const files = bundle as unknown as BundleLike;
      const index = files['index.html'];
      if (index?.type !== 'asset') return;
      const source =
        typeof index.source === 'string' ? index.source : new TextDecoder().decode(index.source);
      const html = withChunkDeps(source, chunkDeps(files, srcDir));
      index.source = html;
      for (const page of PAGE_FILES) {
        const preloads = pagePreloads(files, page.module);
        if (!preloads) continue;
        this.emitFile({ type: 'asset', fileName: page.file, source: withPreloads(html, preloads) });
      }
    },
  };
}
