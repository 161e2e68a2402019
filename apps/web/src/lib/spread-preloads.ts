import { CHUNK_DEPS_ID, type ChunkDeps } from './chunk-deps';

// Names a lazily loaded module's chunks to the browser a few per task, ahead of its import()
// (docs/performance.md, Page speed). Vite's preload, which runs with each import(), adds a
// <link rel="modulepreload"> for every chunk the module needs in one task, and each link costs
// the main thread about half a millisecond as its fetch starts: the campaign screen's 33 made
// a 40-55 ms task on a desktop CPU, four times that on a phone, right as the page first draws.
// Vite leaves out the chunks already linked in the page, so once these links are in, its own
// preload only waits for them.
//
// The lists come from the page: the build writes each module's chunks into a JSON block
// (build/page-preloads.ts). Without it (the dev server) this does nothing.

/** Links added per task: about 3 ms of a desktop CPU's time, 12 ms of a slow phone's. */
export const LINKS_PER_TASK = 6;

let deps: ChunkDeps | null | undefined;
/** The hrefs this file has linked, so two calls sharing chunks link each once. */
const linked = new Set<string>();

function readDeps(): ChunkDeps | null {
  if (deps === undefined) {
    const text = document.getElementById(CHUNK_DEPS_ID)?.textContent;
    try {
      deps = text ? (JSON.parse(text) as ChunkDeps) : null;
    } catch {
      deps = null;
    }
  }
  return deps;
}

/** Lets the browser run whatever waits (input, rendering) before the next batch. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Adds the modulepreload links of `module` (its path under src/ without the extension, as in
 * `features/campaigns/campaigns-page`) that the page does not have yet, `LINKS_PER_TASK` at a
 * time, and resolves once all are in.
 */
export async function spreadPreloads(module: string): Promise<void> {
  const list = readDeps();
  const files = list?.modules[module]?.flatMap((i) => list.files[i] ?? []) ?? [];
  const inPage = new Set(Array.from(document.getElementsByTagName('link'), (l) => l.href));
  const hrefs = files
    .map((file) => new URL(`/${file}`, document.baseURI).href)
    .filter((href) => !inPage.has(href));
  for (let start = 0; start < hrefs.length; start += LINKS_PER_TASK) {
    if (start > 0) await nextTask();
    for (const href of hrefs.slice(start, start + LINKS_PER_TASK)) {
      if (linked.has(href)) continue;
      linked.add(href);
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    }
  }
}
