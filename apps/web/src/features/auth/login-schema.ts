// The login form's contract schema, in its own chunk: zod loads when the visitor starts typing,
// not with the login page itself (performance.md target 21).
export { LoginBodySchema } from '@herald/contract';
