import { describe, expect, it } from 'vitest';

import { createLogger, logFormatFor } from '../../src/log/createLogger.js';
import { runTotals } from '../helpers/runTotals.js';

const KEY = 'pk_live_9f8e7d6c5b4a';
/** A database password whose halves are each shorter than the 8 characters the JSON-level scrubber looks for. */
const PASSWORD = 'abcdefg1234567';

/** A pretty logger writing into an array, with the API key as a known secret. */
function capture() {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    secrets: [KEY, PASSWORD],
    format: 'pretty',
    destination: { write: (line) => void lines.push(line) },
  });
  // pino-pretty colours only a terminal; the array is not one, but strip colours to be sure.
  const plain = () => lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));
  return { logger, plain };
}

const finished = {
  job: 'crawl',
  runId: 17,
  status: 'succeeded',
  durationMs: 1234,
  ...runTotals({ requests: 40, recordsSeen: 400, recordsWritten: 380, recordsRejected: 2 }),
};

describe('pretty logs', () => {
  it('says a finished job in one human line, with its time in UTC and its level', () => {
    const { logger, plain } = capture();
    logger.info(finished, 'job finished');
    expect(plain()).toEqual([
      expect.stringMatching(
        /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] INFO: crawl finished in 1\.2 s · 40 requests · 380\/400 records written, 2 rejected · run 17\n$/,
      ),
    ]);
  });

  it('puts a degraded run’s reason after its figures', () => {
    const { logger, plain } = capture();
    logger.error({ ...finished, recordsRejected: 0, degradation: 'no record received' }, 'job degraded: no record received');
    expect(plain()[0]).toMatch(/ERROR: crawl degraded in 1\.2 s · 40 requests · 380\/400 records written · run 17 · no record received\n$/);
  });

  it('writes other entries as the message followed by key=value, errors by their message', () => {
    const { logger, plain } = capture();
    logger.info({ instanceId: 'i-1', schedules: { crawl: '*/10 * * * *' } }, 'service started');
    logger.error({ job: 'details', err: new Error('outer', { cause: new Error('inner') }) }, 'job failed');
    expect(plain()[0]).toMatch(/INFO: service started instanceId=i-1 schedules=\{"crawl":"\*\/10 \* \* \* \*"\}\n$/);
    expect(plain()[1]).toMatch(/ERROR: job failed job=details err=outer: inner\n$/);
  });

  it('never prints a known secret nor a terminal control, even split by an escape sequence', () => {
    const { logger, plain } = capture();
    logger.warn({ body: `upstream said ${KEY.slice(0, 10)}\x1b[0m${KEY.slice(10)}` }, `bad \x1b]0;title\x07 answer \u202e`);
    logger.error({ err: new Error(`key ${KEY} in a message`) }, 'failed');
    logger.info({ url: `postgres://u:${PASSWORD.slice(0, 7)}\x1b[0m${PASSWORD.slice(7)}@h/db` }, 'split');
    const text = plain().join('');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(0, 10));
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
    expect(text).toContain('[REDACTED]');
  });
});

describe('logFormatFor', () => {
  it('is pretty on a terminal only when auto, and what is asked otherwise', () => {
    expect(logFormatFor('auto', true)).toBe('pretty');
    expect(logFormatFor('auto', false)).toBe('json');
    expect(logFormatFor('json', true)).toBe('json');
    expect(logFormatFor('pretty', false)).toBe('pretty');
  });
});
