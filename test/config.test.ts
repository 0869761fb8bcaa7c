import { describe, expect, it } from 'vitest';

import { ConfigError, HOT_EVENTS_DEFAULT, parseConfig } from '../src/config.js';
import { CATEGORIES } from '../src/domain/types.js';

function catchError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('parseConfig', () => {
  it('applies the documented defaults', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      databaseUrl: undefined,
      apiUrl: 'https://api.jup.ag/prediction/v1',
      apiKey: undefined,
      rateLimitRpm: 60,
      pageSize: 100,
      providers: ['kalshi', 'polymarket'],
      categories: ['all'],
      maxRejectedPercent: 5,
      dataDir: './data',
      logFormat: 'auto',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable', () => {
    const config = parseConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/x',
      PREDICTION_API_URL: 'http://127.0.0.1:8080/prediction/v1/',
      PREDICTION_API_KEY: ' k ',
      PREDICTION_RATE_LIMIT_RPM: '600',
      PREDICTION_PAGE_SIZE: '40',
      PREDICTION_PROVIDERS: 'polymarket,bisonfi',
      PREDICTION_CATEGORIES: 'crypto, sports',
      MAX_REJECTED_PERCENT: '12.5',
      DATA_DIR: '/tmp/x',
      LOG_FORMAT: 'pretty',
      PGPASSWORD: 'libpq-password',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://u:p@db:5432/x',
      pgPassword: 'libpq-password',
      apiUrl: 'http://127.0.0.1:8080/prediction/v1',
      apiKey: 'k',
      rateLimitRpm: 600,
      pageSize: 40,
      providers: ['polymarket', 'bisonfi'],
      categories: ['crypto', 'sports'],
      maxRejectedPercent: 12.5,
      dataDir: '/tmp/x',
      logFormat: 'pretty',
    });
  });

  /** Each setting, the rule its error states, and values that break the rule. */
  const refused: [string, string, string[]][] = [
    ['PREDICTION_RATE_LIMIT_RPM', 'a positive integer', ['abc', '0', '1.5']],
    ['PREDICTION_PAGE_SIZE', 'a positive integer up to 100', ['0', '101']],
    ['PREDICTION_PROVIDERS', 'a comma-separated list of provider names (kalshi, polymarket, …)', ['kalshi,Bison Fi']],
    ['MAX_REJECTED_PERCENT', 'a percentage from 0 to 100', ['101', '-1']],
    ['PREDICTION_CATEGORIES', `a comma-separated list of ${CATEGORIES.join(', ')}`, ['crypto,weather']],
    ['PREDICTION_API_URL', 'a http: or https: URL', ['ftp://x']],
    // Past these a timer overflows, or a date: refused here rather than failing later as something else.
    ['PREDICTION_DB_STATEMENT_TIMEOUT_SEC', 'a positive integer up to 86400', ['3000000']],
    ['PREDICTION_LEASE_TTL_SEC', 'a positive integer up to 86400', ['10000000']],
    ['EMBEDDED_PG_PORT', 'a positive integer up to 65535', ['70000']],
    ['ORDERBOOK_MAX_AGE_SEC', 'a positive integer up to 31536000', ['99999999999']],
    ['ORDERBOOK_HOT_EVENTS', 'a non-negative integer up to 1000', ['-1', '1001']],
    ['PREDICTION_RETENTION_MONTHS', 'a positive integer up to 1200', ['5000']],
    ['LOG_LEVEL', 'one of fatal, error, warn, info, debug, trace, silent', ['loud']],
    ['LOG_FORMAT', 'one of auto, pretty, json', ['yaml']],
  ];
  it.each(refused.flatMap(([name, rule, values]) => values.map((value) => [name, value, rule] as const)))(
    'names %s in the error for %j',
    (name, value, rule) => {
      expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
      expect(() => parseConfig({ [name]: value })).toThrow(`${name} must be ${rule}, got ${JSON.stringify(value)}`);
    },
  );

  it('reads none of the busiest events between crawls by default, as many as set otherwise', () => {
    expect(parseConfig({}).hotEvents).toBe(HOT_EVENTS_DEFAULT);
    expect(HOT_EVENTS_DEFAULT).toBe(0);
    expect(parseConfig({ ORDERBOOK_HOT_EVENTS: '0' }).hotEvents).toBe(0);
    expect(parseConfig({ ORDERBOOK_HOT_EVENTS: '100' }).hotEvents).toBe(100);
  });

  it('never echoes a database URL, which may hold a password', () => {
    expect(() => parseConfig({ DATABASE_URL: 'mysql://user:s3cret@h/db' })).toThrow(
      /DATABASE_URL must be a postgres: or postgresql: URL, got \(value hidden\)/,
    );
    try {
      parseConfig({ DATABASE_URL: 'mysql://user:s3cret@h/db' });
    } catch (e) {
      expect(String((e as Error).message)).not.toContain('s3cret');
    }
  });

  it('refuses credentials in PREDICTION_API_URL without echoing them', () => {
    for (const url of [
      'https://user:s3cret-pw@api.example.test/prediction/v1',
      'https://tok3n-only@api.example.test/prediction/v1',
      'http://u:s3cret-pw@127.0.0.1:8787/v1',
    ]) {
      const error = catchError(() => parseConfig({ PREDICTION_API_URL: url }));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toMatch(/PREDICTION_API_URL must not contain a user name or password/);
      expect(error.message).not.toMatch(/s3cret|tok3n|\/\/u(ser)?:/);
    }
    // Nor in the message about a wrong protocol, nor when the URL does not parse.
    const wrongProtocol = catchError(() => parseConfig({ PREDICTION_API_URL: 'ftp://user:s3cret-pw@files.example.test/x' }));
    expect(wrongProtocol.message).toContain('PREDICTION_API_URL must be a http: or https: URL, got "ftp://files.example.test/x"');
    const unparsable = catchError(() => parseConfig({ PREDICTION_API_URL: 'https://user:s3cret-pw@' }));
    expect(unparsable.message).toContain('PREDICTION_API_URL must be a http: or https: URL');
    expect(unparsable.message).not.toContain('s3cret');
  });

  it('refuses a query or fragment in PREDICTION_API_URL without echoing it: a key put there would be stored in clear', () => {
    for (const url of ['https://api.example.test/prediction/v1?api_key=s3cret-key', 'https://api.example.test/prediction/v1#s3cret-key']) {
      const error = catchError(() => parseConfig({ PREDICTION_API_URL: url }));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toMatch(/PREDICTION_API_URL must not have a query or fragment/);
      expect(error.message).not.toContain('s3cret');
    }
  });

  it('refuses plain http: for a host that is not loopback unless PREDICTION_ALLOW_INSECURE_HTTP=true', () => {
    const url = 'http://api.example.test/prediction/v1';
    expect(() => parseConfig({ PREDICTION_API_URL: url })).toThrow(ConfigError);
    expect(() => parseConfig({ PREDICTION_API_URL: url })).toThrow(
      /PREDICTION_API_URL must be https: for a host that is not loopback .* got "http:\/\/api\.example\.test\/prediction\/v1"; set PREDICTION_ALLOW_INSECURE_HTTP=true/,
    );
    expect(() => parseConfig({ PREDICTION_API_URL: url, PREDICTION_ALLOW_INSECURE_HTTP: 'false' })).toThrow(ConfigError);
    expect(parseConfig({ PREDICTION_API_URL: url, PREDICTION_ALLOW_INSECURE_HTTP: 'true' })).toMatchObject({
      apiUrl: url,
      allowInsecureHttp: true,
    });
    for (const loopback of [
      'http://127.0.0.1:8787/prediction/v1',
      'http://localhost:8787/prediction/v1',
      'http://[::1]:8787/prediction/v1',
    ]) {
      expect(parseConfig({ PREDICTION_API_URL: loopback })).toMatchObject({ apiUrl: loopback, allowInsecureHttp: false });
    }
    expect(() => parseConfig({ PREDICTION_ALLOW_INSECURE_HTTP: 'yes' })).toThrow(
      'PREDICTION_ALLOW_INSECURE_HTTP must be true or false, got "yes"',
    );
    // Reported with the other bad variables.
    expect(() => parseConfig({ PREDICTION_API_URL: url, PREDICTION_RATE_LIMIT_RPM: 'x' })).toThrow(
      /PREDICTION_RATE_LIMIT_RPM.*; PREDICTION_API_URL must be https:/,
    );
  });

  it.each([
    ['a line feed', 'sk-live-abc\ndef', /a line break at character 12/],
    ['a carriage return', 'sk-live-abc\r\ndef', /a line break at character 12/],
    ['a control character', 'sk-live-abc\u0000def', /a control character at character 12/],
    ['a tab', 'sk-live-abc\tdef', /a control character at character 12/],
    ['a non-ASCII character', 'sk-live-abcédef', /a non-ASCII character at character 12/],
  ])('refuses a key with %s, which cannot be sent as a header, without echoing it', (_what, key, where) => {
    const error = catchError(() => parseConfig({ PREDICTION_API_KEY: key }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/PREDICTION_API_KEY cannot be sent as an HTTP header/);
    expect(error.message).toMatch(where);
    expect(error.message).not.toContain('sk-live');
  });

  it('accepts a key with spaces or line breaks only at its ends (trimmed)', () => {
    expect(parseConfig({ PREDICTION_API_KEY: ' sk-live-abc\n' }).apiKey).toBe('sk-live-abc');
  });

  it.each(['DATABASE_URL', 'TEST_DATABASE_URL'])('names %s and says to percent-encode a percent sign that is not an escape', (name) => {
    for (const [url, part] of [
      ['postgres://ingest:50%off-secret@db:5432/prediction', 'password'],
      ['postgres://in%gest:pw@db:5432/prediction', 'user name'],
      ['postgres://ingest:pw@d%b:5432/prediction', 'host'],
    ] as const) {
      const error = catchError(() => parseConfig({ [name]: url }));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toContain(
        `${name} has a "%" in its ${part} that does not start a percent-encoded character: percent-encode it`,
      );
      expect(error.message).not.toMatch(/URI malformed|off-secret|ingest|prediction/);
    }
    // Correctly encoded, it is accepted as it is.
    const encoded = 'postgres://ingest:50%25off@db:5432/prediction';
    expect(parseConfig({ [name]: encoded })).toMatchObject({ [name === 'DATABASE_URL' ? 'databaseUrl' : 'testDatabaseUrl']: encoded });
  });

  it('hints at percent-encoding when a database URL does not parse, still hiding it', () => {
    const error = catchError(() => parseConfig({ DATABASE_URL: 'postgres://ingest:pa/ss@db:5432/prediction' }));
    expect(error.message).toContain('DATABASE_URL must be a postgres: or postgresql: URL, got (value hidden) (special characters');
    expect(error.message).not.toContain('pa/ss');
  });

  it('reports every bad variable at once', () => {
    expect(() => parseConfig({ PREDICTION_RATE_LIMIT_RPM: 'x', DATA_DIR: ' ' })).toThrow(
      /PREDICTION_RATE_LIMIT_RPM.*; DATA_DIR must not be empty/,
    );
  });
});
