import { config } from 'zod/v4/core';

/**
 * The web build resolves `zod` to this module (vite.config.ts). The page's Content-Security-
 * Policy forbids eval, and zod probes for it by compiling a function from a string on its first
 * object parse: the throw is caught, but the browser still reports a CSP violation. Jitless
 * parsing skips the probe; the forms' schemas are small enough that the compiled fast path buys
 * nothing noticeable. Set here, zod is configured before any schema parses, and only in the chunks that
 * use zod: the login page's first chunk does not load it.
 */
config({ jitless: true });

export * from 'zod/v4';
export { default, default as z } from 'zod/v4';
