import { Logger } from 'graphile-worker';

type LogFn = (obj: object, msg?: string) => void;

/** The part of pino the services use; Fastify's `app.log` is one, so is a console adapter. */
export interface Log {
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
}

/**
 * graphile-worker's log lines (job started, completed, failed with the retry delay) go to the
 * app's log with the job's scope as fields, so background work shows beside the requests.
 */
export function workerLogger(log: Log): Logger {
  return new Logger((scope) => (level, message, meta) => {
    const fields = { ...scope, ...meta, component: 'jobs' };
    switch (String(level)) {
      case 'error':
        return log.error(fields, message);
      case 'warning':
        return log.warn(fields, message);
      case 'info':
        return log.info(fields, message);
      default:
        return log.debug(fields, message);
    }
  });
}
