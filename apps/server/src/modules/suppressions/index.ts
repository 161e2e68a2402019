/**
 * The suppressions module's public face for other modules beside suppressions.service.ts: the
 * fragment the delivery engine's claim composes to skip suppressed numbers in the same statement
 * (docs/delivery.md, Opt-outs).
 */
export { suppressedAmong } from './suppressions.sql.js';
