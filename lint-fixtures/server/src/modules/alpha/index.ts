// Good: a module's public face re-exports what other modules may use.
export { alphaFor } from './alpha.service.js';
export { formatAlpha } from './alpha-format.js';
