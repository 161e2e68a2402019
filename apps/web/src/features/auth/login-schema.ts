// The login form's contract schema, in its own chunk: zod loads when the visitor starts typing,
// not with the login page itself (docs/performance.md, bundle size).
export { LoginBodySchema } from '@herald/contract';
