import type { FastifyBaseLogger, FastifyRequest, FastifyServerOptions } from 'fastify';
import { redactCallbackToken } from '../modules/delivery/providers/webhook-url.js';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * A request's logger that becomes pino's child (with the request id) only when the request first
 * logs. Fastify otherwise calls pino's `child()` on every request: a Fastify hello world spent
 * about 1-2 us more a request with pino than without (18-19 us in all here), a cost every
 * request paid though most never log, since per-request lines are off below debug
 * (docs/performance.md, request CPU).
 */
export class LazyChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}

  /** The real child, made once. */
  get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.opts));
  }

  get level(): string {
    return this.made?.level ?? this.opts.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.log('error', args);
  }
  warn(...args: unknown[]): void {
    this.log('warn', args);
  }
  info(...args: unknown[]): void {
    this.log('info', args);
  }
  debug(...args: unknown[]): void {
    this.log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.log('trace', args);
  }
  silent(...args: unknown[]): void {
    this.log('silent', args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }

  private log(method: Method, args: unknown[]): void {
    const real = this.real;
    Reflect.apply(real[method], real, args);
  }
}

/** Fastify's `childLoggerFactory`: request loggers made on first use. */
export const lazyChildLoggerFactory: ChildLoggerFactory = (logger, bindings, opts) =>
  new LazyChildLogger(logger, bindings, opts);

/**
 * A request as its log lines show it (Fastify's own fields), with a provider webhook's token
 * segment replaced: the token is the credential of a gateway that signs nothing.
 */
export function loggedRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactCallbackToken(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket.remotePort,
  };
}
