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

/** The logged-in caller of a non-public route (the hook guarantees it is set). */
export function caller(req: FastifyRequest): AuthUser {
  if (!req.authUser) throw unauthorized();
  return req.authUser;
}

/**
 * Authenticates every /api request (bearer token, cheap verify, revocation by token version and
 * status) and then checks the route's `config.roles`. Callback style, synchronous when the
 * caller is cached: no promise per request on the hot path (performance.md target 14).
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
      if (config.roles && !config.roles.includes(user.role)) return done(forbidden());
      done();
    };
    const cached = app.ctx.authState.peek(claims.sub);
    if (cached) return admit(cached);
    app.ctx.authState.get(claims.sub).then(admit, (err: Error) => done(err));
  });
}
