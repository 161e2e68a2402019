/**
 * The list of each lazily loaded module's chunks that the build writes into every page
 * (build/page-preloads.ts) and lib/spread-preloads.ts reads: one definition for both.
 */

/** The id of the page's JSON block. */
export const CHUNK_DEPS_ID = 'chunk-deps';

/** Each lazily loaded module's JS chunks, beyond what the entry has loaded. */
export interface ChunkDeps {
  /** The chunks' paths from the site's root, each once. */
  files: string[];
  /** A module's path under src/, without its extension, and the indexes of its chunks. */
  modules: Record<string, number[]>;
}
