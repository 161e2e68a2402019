/**
 * The auth module's public face for other modules beside auth.service.ts: the login limits'
 * counters, which two-factor codes share (modules/two-factor).
 */
export { loginKeys, type LoginKeys } from './login-keys.js';
