import fs from 'node:fs';
import path from 'node:path';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { LOGIN_PATH, SET_PASSWORD_PATH, UNAUTHORIZED_PATH, server as msg } from '@herald/contract';

/**
 * The bearer token lives in the page's storage, so this policy is what stands between a future
 * XSS and the token: scripts only from our own files (no inline script, no eval), nothing
 * framing the app, no plugins. React and react-bootstrap set styles through the CSSOM, which
 * `style-src` does not govern, so styles stay `'self'` too. Previews of picked images and
 * videos are blob: URLs; the recipients parser Worker is a same-origin module file.
 */
const helmetOptions: FastifyHelmetOptions = {
  // Headers are applied by the hook below, only for the web app's responses.
  global: false,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': ["'self'", 'data:', 'blob:'],
      // The campaign details play a campaign's video and audio from fetched blobs; the create
      // form's preview shows a chosen video the same way.
      'media-src': ["'self'", 'blob:'],
      'connect-src': ["'self'"],
      'worker-src': ["'self'", 'blob:'],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  // The app's URLs carry campaign and user ids; no other site needs to see them.
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
};

/** HSTS over plain HTTP is meaningless and would pin a dev or test host to HTTPS. */
const overHttp = { strictTransportSecurity: false } as const;

/**
 * The build's hashed scripts and styles (`/assets/`) are read by a page, not shown as one, so
 * the headers that only a document (or a worker) heeds are left off: the CSP, framing, opener,
 * origin-cluster, DNS-prefetch, download, cross-domain and XSS-filter headers, and HSTS, which
 * the page itself carries. That is about 600 bytes on each of the 20 to 60 files a screen
 * loads, which a phone's slow link pays before the bytes of each file. What still matters for
 * a subresource stays: nosniff, Cross-Origin-Resource-Policy and the Referrer-Policy (a
 * stylesheet's own fetches). A worker's script keeps every header, since a worker runs under
 * the CSP its script came with: Vite names it after its source, `*.worker.ts`.
 */
const forSubresource = {
  contentSecurityPolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  strictTransportSecurity: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  frameguard: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} as const;

function isSubresource(url: string): boolean {
  const pathname = url.split('?', 1)[0] ?? '';
  return pathname.startsWith('/assets/') && !/\.worker-[\w-]+\.js$/.test(pathname);
}

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/**
 * A path whose last segment has an extension names a file (a chunk of an older build, the
 * browser's /favicon.ico): missing, it is a 404, never the app's page with a 200, which a
 * browser would try to run as the missing script. The app's own routes have no extension.
 */
function isFilePath(url: string): boolean {
  const pathname = url.split('?', 1)[0] ?? '';
  return /\.[A-Za-z0-9]+$/.test(pathname.slice(pathname.lastIndexOf('/') + 1));
}

function securityHeaders(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
  // `protocol` honours TRUST_PROXY, so a TLS-terminating proxy's X-Forwarded-Proto counts.
  if (isSubresource(req.url)) reply.helmet(forSubresource);
  else if (!isApiPath(req.url)) reply.helmet(req.protocol === 'https' ? undefined : overHttp);
  done();
}

/**
 * The page file for a client-side route. The build writes, beside index.html, copies that name
 * the first chunks of the login page (login.html) and of the signed-in app (app.html) for the
 * browser to fetch with the entry (apps/web/build/page-preloads.ts; docs/performance.md, Page
 * speed). The set-password and unauthorized pages need neither; a build without the copies
 * serves index.html everywhere. The name is relative to the build's folder.
 */
function pageFiles(webDist: string): (url: string) => string {
  const copy = (name: string) => (fs.existsSync(path.join(webDist, name)) ? name : 'index.html');
  const login = copy('login.html');
  const app = copy('app.html');
  return (url) => {
    const pathname = url.split('?', 1)[0] ?? '';
    if (pathname === LOGIN_PATH) return login;
    if (pathname === SET_PASSWORD_PATH || pathname === UNAUTHORIZED_PATH) return 'index.html';
    return app;
  };
}

/**
 * Serves the built web app on every path outside /api; client-side routes fall back to
 * index.html. Unknown /api paths answer 404 `{ message }`. Registered in its own scope so the
 * security-header hooks never run on the API's routes (their per-request cost is measured).
 */
export async function registerWebStatic(app: FastifyInstance, webDist: string | undefined) {
  const index = webDist ? path.join(webDist, 'index.html') : undefined;
  const hasWeb = !!index && fs.existsSync(index);
  const pageFor = hasWeb && webDist ? pageFiles(webDist) : undefined;
  await app.register(async (web) => {
    await web.register(fastifyHelmet, helmetOptions);
    web.addHook('onRequest', securityHeaders);
    if (hasWeb && webDist) {
      await web.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        index: false,
        // The build's .br and .gz copies (apps/web/vite.config.ts), by Accept-Encoding.
        preCompressed: true,
        setHeaders(res, filePath) {
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            res.header('cache-control', 'public, max-age=31536000, immutable');
          }
        },
      });
    }
    web.setNotFoundHandler((req, reply) => {
      if (isApiPath(req.url) || !hasWeb || req.method !== 'GET' || isFilePath(req.url)) {
        return reply.code(404).send({ message: msg.notFound });
      }
      // Through @fastify/static, so the page's .br or .gz copy goes out by Accept-Encoding like
      // every other asset; its own cache header is kept (the page must be checked each time).
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .sendFile(pageFor!(req.url), { cacheControl: false });
    });
  });
}
