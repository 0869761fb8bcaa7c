import { describe, expect, it } from 'vitest';

import { cronLogger } from '../../src/service/cronLogger.js';

function recordingLogger() {
  const lines: [string, object, string][] = [];
  const at = (level: string) => (obj: object, msg: string) => void lines.push([level, obj, msg]);
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('cronLogger', () => {
  it("turns node-cron's messages into structured lines naming the job, errors kept as err", () => {
    const { lines, logger } = recordingLogger();
    const cron = cronLogger(logger, 'orderbooks');
    const failure = new Error('boom');
    cron.warn('task still running, new execution blocked by overlap prevention!');
    cron.error('execution failed', failure);
    cron.debug(failure);
    expect(lines).toEqual([
      ['warn', { job: 'orderbooks' }, 'task still running, new execution blocked by overlap prevention!'],
      ['error', { job: 'orderbooks', err: failure }, 'execution failed'],
      ['debug', { job: 'orderbooks', err: failure }, 'boom'],
    ]);
  });
});
