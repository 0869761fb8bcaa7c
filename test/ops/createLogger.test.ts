import { describe, expect, it } from 'vitest';

import { configSecrets } from '../../src/configSecrets.js';
import { createLogger } from '../../src/log/createLogger.js';

/** A logger writing into an array, with the API key and a DB password as known secrets. */
function capture(secrets: string[], level = 'trace') {
  const lines: string[] = [];
  const logger = createLogger({ level, name: 'test', secrets, destination: { write: (line) => void lines.push(line) } });
  return { logger, lines, text: () => lines.join('') };
}

const KEY = 'pk_live_9f8e7d6c5b4a';

type Fields = { [name: string]: string | Fields };

/** `fields` as a censoring logger writes them: every string, however deep, '[REDACTED]' but those under a name in `plain`. */
function censoredBut(plain: string[], fields: Fields): Fields {
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, typeof v === 'object' ? censoredBut(plain, v) : plain.includes(k) ? v : '[REDACTED]']),
  );
}

describe('createLogger', () => {
  it('writes one JSON object per line with level names, ISO times and the name', () => {
    const { logger, lines } = capture([KEY]);
    logger.info({ runId: 7 }, 'cycle done');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ level: 'info', name: 'test', runId: 7, msg: 'cycle done' });
    expect(new Date(line.time).toISOString()).toBe(line.time);
  });

  it('never writes a known secret, wherever it is put', () => {
    const { logger, text, lines } = capture([KEY]);
    const error = new Error(`request with key ${KEY} failed`, { cause: new Error(`inner: x-api-key=${KEY}`) });
    Object.assign(error, { detail: { deeper: { still: { key: KEY } } } });
    logger.info(`message with ${KEY}`);
    logger.info('interpolated %s and %o', KEY, { k: KEY });
    logger.warn({ nested: { a: { b: { c: [1, { d: KEY }] } } } }, 'deep');
    logger.error({ err: error }, 'as err');
    logger.error(error);
    logger.error({ error, context: { url: `https://api.example/v1?apiKey=${encodeURIComponent(KEY)}` } }, 'as error');
    logger.error(new AggregateError([new Error(KEY)], 'aggregate'));
    logger.child({ bound: KEY }).info('from a child');
    logger.info({ [KEY]: 'as a key' }, 'key as a field name');
    logger.info({ text: `prefix${KEY}suffix`, twice: `${KEY}${KEY}` }, 'embedded');

    expect(lines).toHaveLength(10);
    expect(text()).not.toContain(KEY);
    expect(text()).not.toContain(encodeURIComponent(KEY));
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    // What is not secret survives: the error is still useful.
    const asErr = JSON.parse(lines[3]!);
    expect(asErr.err.message).toContain('request with key [REDACTED] failed');
    expect(asErr.err.stack).toContain('Error: request with key [REDACTED] failed');
    expect(asErr.err.stack).toContain('caused by');
    expect(JSON.parse(lines[9]!).twice).toBe('[REDACTED][REDACTED]');
  });

  it('keeps lines valid JSON when the secret contains characters JSON escapes', () => {
    const secret = 'a"b\\c\nd\u0001e';
    const { logger, lines, text } = capture([secret]);
    logger.info({ field: secret, nested: { x: `<${secret}>` } }, `msg ${secret}`);
    logger.error(new Error(secret));
    expect(text()).not.toContain(JSON.stringify(secret).slice(1, -1));
    for (const line of lines) {
      const parsed = JSON.parse(line);
      expect(JSON.stringify(parsed)).not.toContain(JSON.stringify(secret).slice(1, -1));
    }
    expect(JSON.parse(lines[0]!)).toMatchObject({ field: '[REDACTED]', nested: { x: '<[REDACTED]>' }, msg: 'msg [REDACTED]' });
  });

  it('censors fields that may carry a secret, whatever their value', () => {
    const { logger, lines } = capture([]);
    const fields = {
      apiKey: 'unknown-key-1',
      config: { apiKey: 'unknown-key-2', databaseUrl: 'postgres://u:pw@h/db', citusTestUrl: 'postgres://u:pw6@h/db', logLevel: 'info' },
      headers: { 'x-api-key': 'unknown-key-3', accept: 'application/json' },
      request: { headers: { 'x-api-key': 'unknown-key-4', authorization: 'Bearer t' } },
      databaseUrl: 'postgres://u:pw2@h/db',
      password: 'pw3',
      db: { password: 'pw4' },
      env: { PREDICTION_API_KEY: 'unknown-key-5', DATABASE_URL: 'postgres://u:pw5@h/db', CITUS_TEST_URL: 'postgres://u:pw7@h/db' },
    };
    logger.info(fields, 'fields');
    // Every value is censored but the two under names that carry no secret.
    expect(JSON.parse(lines[0]!)).toMatchObject(censoredBut(['logLevel', 'accept'], fields));
    expect(lines[0]).not.toMatch(/unknown-key|pw\d?@|pw\d"/);
  });

  it('ignores empty secrets and respects the level', () => {
    const { logger, lines } = capture(['', '  '], 'warn');
    logger.info('dropped');
    logger.warn('kept');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).msg).toBe('kept');
  });
});

describe('configSecrets', () => {
  it('lists the API key, PGPASSWORD and database passwords, decoded and as written in the URL', () => {
    const secrets = configSecrets({
      apiKey: KEY,
      databaseUrl: 'postgres://ingest:p%40ss%2Fword@db:5432/prediction',
      testDatabaseUrl: 'postgres://postgres@127.0.0.1/test',
      citusTestUrl: 'postgres://citus:coordinator-secret@127.0.0.1:9700/postgres',
      pgPassword: 'from-PGPASSWORD',
    });
    expect(secrets).toEqual([KEY, 'from-PGPASSWORD', 'p@ss/word', 'p%40ss%2Fword', 'coordinator-secret']);
  });

  it('keeps a password out of a logged connection error', () => {
    const url = 'postgres://ingest:hunter2-long@db:5432/prediction';
    const { logger, text } = capture(
      configSecrets({ apiKey: undefined, databaseUrl: url, testDatabaseUrl: undefined, citusTestUrl: undefined, pgPassword: undefined }),
    );
    logger.error({ err: new Error(`cannot connect to ${url}`), target: url }, 'database unreachable');
    expect(text()).not.toContain('hunter2-long');
  });
});
