/**
 * The branding module's public face: what other modules may use of it. Edit User (the users
 * module) reads the same logo form as Whitelabel Settings and stores a logo the same way; the
 * dependency runs one way, users on branding.
 */
export { readLogoForm, type LogoForm } from './logo-form.input.js';
export { changeLogo, checkLogo, logoUrl, type CheckedLogo } from './logo-files.js';
