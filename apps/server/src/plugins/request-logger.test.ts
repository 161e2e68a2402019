import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { LazyChildLogger } from './request-logger.js';

function capture(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  // Fastify's own pino, as the app's request loggers get it.
  return { logger: Fastify({ logger: { level, stream } }).log, lines };
}

describe('LazyChildLogger', () => {
  it('makes no child until the request logs', () => {
    const { logger } = capture();
    let made = 0;
    const parent = Object.assign(Object.create(logger) as typeof logger, {
      child: (...a: Parameters<typeof logger.child>) => (made++, logger.child(...a)),
    });
    const log = new LazyChildLogger(parent, { reqId: 'req-1' }, {});
    expect(log.level).toBe('info');
    expect(made).toBe(0);
    log.warn('x');
    log.error('y');
    expect(made).toBe(1);
  });

  it('logs as the child would, with the bindings, objects and levels', async () => {
    const { logger, lines } = capture();
    const log = new LazyChildLogger(logger, { reqId: 'req-7' }, {});
    log.debug('hidden below the level');
    log.info({ user: 'u1' }, 'hello %s', 'there');
    log.error({ err: new Error('boom') }, 'failed');
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ reqId: 'req-7', user: 'u1', msg: 'hello there', level: 30 });
    expect(lines[1]).toMatchObject({ reqId: 'req-7', msg: 'failed', level: 50 });
    expect((lines[1]!.err as { message: string }).message).toBe('boom');
  });

  it('honours a route log level and a level set later', async () => {
    const { logger, lines } = capture();
    const log = new LazyChildLogger(logger, { reqId: 'req-9' }, { level: 'error' });
    expect(log.level).toBe('error');
    log.warn('dropped');
    log.level = 'debug';
    log.debug('kept');
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => l.msg)).toEqual(['kept']);
  });
});
