import { describe, expect, it } from 'vitest';
import { workerLogger, type Log } from './worker-logger.js';

describe('workerLogger', () => {
  it("puts graphile-worker's lines in the app log at the matching level, with the job scope", () => {
    const lines: [string, object, string | undefined][] = [];
    const capture =
      (level: string) =>
      (obj: object, msg?: string): void => {
        lines.push([level, obj, msg]);
      };
    const log: Log = {
      error: capture('error'),
      warn: capture('warn'),
      info: capture('info'),
      debug: capture('debug'),
    };
    const logger = workerLogger(log).scope({ taskIdentifier: 'send-mail', jobId: '7' });
    logger.error('Failed task 7', { failure: true });
    logger.warn('slow');
    logger.info('Completed task 7');
    logger.debug('Found task 7');

    expect(lines.map(([level, , msg]) => [level, msg])).toEqual([
      ['error', 'Failed task 7'],
      ['warn', 'slow'],
      ['info', 'Completed task 7'],
      ['debug', 'Found task 7'],
    ]);
    expect(lines[0]![1]).toMatchObject({
      taskIdentifier: 'send-mail',
      jobId: '7',
      failure: true,
      component: 'jobs',
    });
  });
});
