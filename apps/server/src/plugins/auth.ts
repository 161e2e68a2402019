import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyKind, Role } from '@herald/contract';
import { server as msg, twoFactorMessages } from '@herald/contract';
import { looksLikeApiKey } from '../lib/api-keys.js';
import { forbidden, unauthorized } from '../lib/app-error.js';
import { authenticateApiKey } from './api-key-auth.js';
import type { AuthUser } from './auth-state.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No token needed (login, password reset, health, public files). */
    public?: boolean;
    /** Roles allowed on the route; absent means any logged-in user. */
    roles?: readonly Role[];
    /** A signed-in session only: an API key answers 403 (key management, docs/api.md). */
    sessionOnly?: boolean;
  }
  interface FastifyRequest {
    authUser: AuthUser | null;
    /** The API key that authenticated the request; null for a session's token. */
    apiKeyId: string | null;
    /** That key's kind; null for a session's token (which acts as live). */
    apiKeyKind: ApiKeyKind | null;
  }
}

/**
 * What a user whose password an Admin reset may still call: read the session, change
 * the password, and load the branding the layout shows. Everything else answers 403.
 */
export const ALLOWED_WHILE_PASSWORD_CHANGE_REQUIRED: ReadonlySet<string> = new Set([
  'GET /api/session',
  'PUT /api/users/change-password',
  'GET /api/whitelabel/my-branding',
]);

/**
 * What a user held to set up two-factor sign-in (the Admin requires it for the role) may still
 * call: read the session and the branding, and enrol. Everything else answers 403.
 */
export const ALLOWED_WHILE_TWO_FACTOR_ENROLMENT_REQUIRED: ReadonlySet<string> = new Set([
  'GET /api/session',
  'GET /api/whitelabel/my-branding',
  'GET /api/two-factor',
  'POST /api/two-factor/setup',
  'POST /api/two-factor/confirm',
]);

/** The logged-in caller of a non-public route (the hook guarantees it is set). */
export function caller(req: FastifyRequest): AuthUser {
  if (!req.authUser) throw unauthorized();
  return req.authUser;
}

/** Whether the request was made with a test API key: its campaigns are test campaigns. */
export function isTestCaller(req: FastifyRequest): boolean {
  return req.apiKeyKind === 'test';
}

/**
 * Authenticates every /api request (bearer token, cheap verify, revocation by token version and
 * status; or an API key, api-key-auth.ts and docs/api.md), holds a user who must change their
 * password, or must set up two-factor sign-in, to the routes that allow it, and then checks the route's `config.roles` and
 * `config.sessionOnly`. Callback style, synchronous when the session's caller is cached: no
 * promise per request on the hot path (docs/performance.md, request CPU).
 */
export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('authUser', null);
  app.decorateRequest('apiKeyId', null);
  app.decorateRequest('apiKeyKind', null);
  app.addHook('onRequest', (req, reply, done) => {
    // API answers are private and never sniffed; set first so errors carry them too.
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    const config = req.routeOptions.config;
    if (config.public) return done();
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ')) return done(unauthorized(msg.notLoggedIn));
    const credential = header.slice(7).trim();
    // The same checks after the caller is known, for a session and for an API key alike.
    const admitUser = (user: AuthUser) => {
      req.authUser = user;
      const route = `${req.method} ${req.routeOptions.url}`;
      if (user.mustChangePassword) {
        if (!ALLOWED_WHILE_PASSWORD_CHANGE_REQUIRED.has(route)) {
          return done(forbidden(msg.passwordChangeRequired));
        }
      } else if (
        user.mustEnrolTwoFactor &&
        !ALLOWED_WHILE_TWO_FACTOR_ENROLMENT_REQUIRED.has(route)
      ) {
        return done(forbidden(twoFactorMessages.enrolRequired));
      }
      if (config.roles && !config.roles.includes(user.role)) return done(forbidden());
      if (config.sessionOnly && req.apiKeyId) return done(forbidden(msg.apiKeyNeedsSession));
      done();
    };
    if (looksLikeApiKey(credential)) {
      authenticateApiKey(app.ctx, credential, reply).then(
        ({ keyId, kind, user }) => {
          req.apiKeyId = keyId;
          req.apiKeyKind = kind;
          admitUser(user);
        },
        (err: Error) => done(err),
      );
      return;
    }
    const claims = app.ctx.tokens.verify(credential);
    if (!claims) return done(unauthorized(msg.sessionEnded));
    const admit = (user: AuthUser | undefined) => {
      if (!user || user.status !== 'Active' || user.tokenVersion !== claims.tv) {
        return done(unauthorized(msg.sessionEnded));
      }
      admitUser(user);
    };
    const cached = app.ctx.authState.peek(claims.sub);
    if (cached) return admit(cached);
    app.ctx.authState.get(claims.sub).then(admit, (err: Error) => done(err));
  });
}
