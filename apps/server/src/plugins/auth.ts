import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Role } from '@herald/contract';
import { server as msg } from '@herald/contract';
import { forbidden, unauthorized } from '../lib/app-error.js';
import type { AuthUser } from './auth-state.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No token needed (login, password reset, health, public files). */
    public?: boolean;
    /** Roles allowed on the route; absent means any logged-in user. */
    roles?: readonly Role[];
  }
  interface FastifyRequest {
    authUser: AuthUser | null;
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

/** The logged-in caller of a non-public route (the hook guarantees it is set). */
export function caller(req: FastifyRequest): AuthUser {
  if (!req.authUser) throw unauthorized();
  return req.authUser;
}

/**
 * Authenticates every /api request (bearer token, cheap verify, revocation by token version and
 * status), holds a user who must change their password to the routes that allow it, and then
 * checks the route's `config.roles`. Callback style, synchronous when the
 * caller is cached: no promise per request on the hot path (docs/performance.md, request CPU).
 */
export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('authUser', null);
  app.addHook('onRequest', (req, reply, done) => {
    // API answers are private and never sniffed; set first so errors carry them too.
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    const config = req.routeOptions.config;
    if (config.public) return done();
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ')) return done(unauthorized(msg.notLoggedIn));
    const claims = app.ctx.tokens.verify(header.slice(7).trim());
    if (!claims) return done(unauthorized(msg.sessionEnded));
    const admit = (user: AuthUser | undefined) => {
      if (!user || user.status !== 'Active' || user.tokenVersion !== claims.tv) {
        return done(unauthorized(msg.sessionEnded));
      }
      req.authUser = user;
      if (
        user.mustChangePassword &&
        !ALLOWED_WHILE_PASSWORD_CHANGE_REQUIRED.has(`${req.method} ${req.routeOptions.url}`)
      ) {
        return done(forbidden(msg.passwordChangeRequired));
      }
      if (config.roles && !config.roles.includes(user.role)) return done(forbidden());
      done();
    };
    const cached = app.ctx.authState.peek(claims.sub);
    if (cached) return admit(cached);
    app.ctx.authState.get(claims.sub).then(admit, (err: Error) => done(err));
  });
}
