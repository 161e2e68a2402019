/**
 * The two-factor module's public face for the login (modules/auth/auth.service.ts): the
 * challenge a correct password answers, the check of a code, and the Admin's requirement.
 */
export { issueChallenge, readChallenge } from './challenge.js';
export { findRequireTwoFactor } from './two-factor.repo.js';
export { checkCode } from './two-factor.service.js';
