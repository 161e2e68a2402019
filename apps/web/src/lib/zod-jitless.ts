import { z } from 'zod';

/**
 * The page's Content-Security-Policy forbids eval. Zod probes for it with a `new Function` on its
 * first object parse: the throw is caught, but the browser still reports a CSP violation on
 * every page load. Jitless parsing skips the probe; the forms' schemas are small enough that
 * the compiled fast path buys nothing noticeable. Imported first by the entry point so it is
 * set before any schema parses.
 */
z.config({ jitless: true });
