import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PredictionClient } from '../../src/api/client/index.js';
import { classifyError } from '../../src/cli/classifyError.js';
import { configSecrets } from '../../src/configSecrets.js';
import { createSecretRedactor, REDACTED } from '../../src/errors/createSecretRedactor.js';
import { errorChainMessage } from '../../src/errors/errorChainMessage.js';
import { redactJsonText } from '../../src/errors/redactJsonText.js';
import { sanitizeText } from '../../src/errors/sanitizeText.js';
import { createLogger } from '../../src/log/createLogger.js';
import { recordUpstream, UpstreamMismatchError } from '../../src/sql/admin/recordUpstream.js';
import { type RecordingServer, startRecordingServer } from '../api/client/helpers/recordingServer.js';
import { TEST_KEY, testClient } from '../api/client/helpers/testClient.js';
import { wireMarket } from '../api/client/helpers/wire.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

/** Every piece of 8 characters of `secret`: none of them may appear. */
function pieces(secret: string): string[] {
  return Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));
}

function expectNoPiece(text: string, secret = TEST_KEY): void {
  for (const piece of pieces(secret)) expect(text).not.toContain(piece);
}

describe('createSecretRedactor', () => {
  const redact = createSecretRedactor([TEST_KEY, 'p@ss/w0rd-long', null, undefined, '', '   ']);

  it('replaces the whole secret and any piece of 8 characters or more, wherever it sits', () => {
    expect(redact(`key=${TEST_KEY};`)).toBe(`key=${REDACTED};`);
    // The first 10 characters: what a validation message quoting the start of a value leaked.
    expect(redact(`got "${TEST_KEY.slice(0, 10)}"`)).toBe(`got "${REDACTED}"`);
    expect(redact(`x${TEST_KEY.slice(5, 13)}y`)).toBe(`x${REDACTED}y`);
    // Two copies side by side stay two.
    expect(redact(`${TEST_KEY}${TEST_KEY}`)).toBe(`${REDACTED}${REDACTED}`);
    for (const piece of pieces(TEST_KEY)) expect(redact(`<<${piece}>>`)).toBe(`<<${REDACTED}>>`);
  });

  it('leaves a piece of 7 characters, and text without any secret, untouched (the same string)', () => {
    const seven = `a ${TEST_KEY.slice(0, 7)} b`;
    expect(redact(seven)).toBe(seven);
    const clean = 'nothing secret here, not even sk-test';
    expect(redact(clean)).toBe(clean);
  });

  it('finds the secret percent-encoded and JSON-escaped', () => {
    const password = 'p@ss/w0rd-long';
    expect(redact(`postgres://u:${encodeURIComponent(password)}@h/db`)).toBe(`postgres://u:${REDACTED}@h/db`);
    expect(redact(`{"p":${JSON.stringify(password).replace('/', '\\/')}}`)).toBe(`{"p":"${REDACTED}"}`);
  });

  it('matches a secret shorter than 8 characters only whole, and ignores blank ones', () => {
    const short = createSecretRedactor(['pw1', ' ']);
    expect(short('a pw1 b pw c')).toBe(`a ${REDACTED} b pw c`);
    expect(createSecretRedactor(['', '  ', null])('anything')).toBe('anything');
  });

  it('scans a 32 MB body in one pass', () => {
    const body = JSON.stringify({
      data: Array.from({ length: 400_000 }, (_, i) => ({ marketId: `M-${i}`, title: 'Will it rain tomorrow?' })),
    });
    const started = performance.now();
    expect(redact(body)).toBe(body);
    // Generous for a loaded CI machine; a quadratic scan would take minutes.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('redactJsonText', () => {
  const redact = createSecretRedactor(['a"b\\c/d-secret']);

  it('keeps JSON valid whatever the secret contains, and keys and values alike are redacted', () => {
    const secret = 'a"b\\c/d-secret';
    const text = `${JSON.stringify({ [secret]: [`x${secret}y`, { deep: secret }], n: 1 })}\n`;
    const out = redactJsonText(text, redact);
    expect(out.endsWith('\n')).toBe(true);
    expect(JSON.parse(out)).toEqual({ [REDACTED]: [`x${REDACTED}y`, { deep: REDACTED }], n: 1 });
  });

  it('returns the same string when there is nothing to redact, and redacts text that is not JSON', () => {
    const text = '{"a":1}';
    expect(redactJsonText(text, redact)).toBe(text);
    expect(redactJsonText('<html>a"b\\c/d-secret</html>', redact)).toBe(`<html>${REDACTED}</html>`);
  });

  it('keeps a "__proto__" key as a key', () => {
    const out = redactJsonText('{"__proto__":{"x":"a\\"b\\\\c/d-secret"}}', redact);
    expect(JSON.parse(out)).toEqual(JSON.parse(`{"__proto__":{"x":"${REDACTED}"}}`));
  });
});

describe('the logger', () => {
  it('never writes the first characters of the key, as a validation message quotes them', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      secrets: configSecrets({
        apiKey: TEST_KEY,
        databaseUrl: undefined,
        testDatabaseUrl: undefined,
        citusTestUrl: undefined,
        pgPassword: undefined,
      }),
      destination: { write: (line: string) => void lines.push(line) },
    });
    const quoted = JSON.stringify(`x-api-key: ${TEST_KEY}`.slice(0, 21));
    logger.warn({ reason: `title: expected a string, got ${quoted}… (35 characters)` }, 'record rejected');
    logger.error({ err: new Error(`Response does not match the spec: data: got ${quoted}`) }, 'sync failed');
    expect(lines).toHaveLength(2);
    expectNoPiece(lines.join(''));
    expect(JSON.parse(lines[0]!).reason).toContain(REDACTED);
  });

  it('escapes C1 controls and bidirectional overrides that JSON leaves raw', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    logger.info({ title: 'a\u009b2Kb\u202ec' }, 'upstream text');
    expect(lines[0]).not.toMatch(/[\u0080-\u009f\u202e]/);
    expect(JSON.parse(lines[0]!).title).toBe('a\u009b2Kb\u202ec');
  });
});

describe('a key reflected by the upstream', () => {
  let server: RecordingServer;
  let client: PredictionClient;

  beforeAll(async () => {
    server = await startRecordingServer((a) => {
      const id = a.path.split('/').pop()!;
      const echoed = a.headers['x-api-key'];
      switch (id) {
        case 'events':
          // An envelope that cannot be read, quoting the key: a shape error names the value.
          return { json: { data: `x-api-key: ${String(echoed)}`, pagination: { start: 0, end: 1, total: 1, hasNext: false } } };
        case 'TITLE':
          return {
            json: wireMarket('TITLE', { metadata: { ...(wireMarket('TITLE').metadata as object), title: `Hello ${String(echoed)}` } }),
          };
        case 'REJECT':
          return { json: wireMarket('REJECT', { settlementTime: `${String(echoed)} tomorrow` }) };
        case 'ERROR':
          return { status: 404, json: { message: `no market for ${String(echoed)}` } };
        default:
          return { json: wireMarket(id) };
      }
    });
    client = testClient(server.baseUrl, { maxAttempts: 1 });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('reaches no error, exit message, stored record or rejection reason', async () => {
    const shapeError = await client.listEvents().then(
      () => expect.fail('should have failed'),
      (e: unknown) => e,
    );
    expect((shapeError as Error).name).toBe('ApiResponseShapeError');
    const exit = classifyError(shapeError);
    expect(exit.message).toContain(REDACTED);
    expectNoPiece(exit.message);
    expectNoPiece(errorChainMessage(shapeError));

    const titled = await client.getMarket('TITLE');
    expect(titled.ok).toBe(true);
    expectNoPiece(JSON.stringify(titled));
    expect(JSON.stringify(titled)).toContain(`Hello ${REDACTED}`);

    const rejected = await client.getMarket('REJECT');
    expect(rejected.ok).toBe(false);
    expectNoPiece(JSON.stringify(rejected));

    const notFound = await client.getMarket('ERROR').catch((e: unknown) => e);
    expect((notFound as Error).message).toContain(`no market for ${REDACTED}`);
    expectNoPiece(errorChainMessage(notFound));

    // The key did travel, as the header: the server saw it.
    expect(server.arrivals[0]!.headers['x-api-key']).toBe(TEST_KEY);
  });
});

describe('exit messages', () => {
  it('never print a known secret, nor a piece of it', () => {
    const redact = createSecretRedactor(
      configSecrets({
        apiKey: TEST_KEY,
        databaseUrl: 'postgres://u:hunter2-hunter2@h/db',
        testDatabaseUrl: undefined,
        citusTestUrl: undefined,
        pgPassword: undefined,
      }),
    );
    const error = new Error(`failed with ${TEST_KEY.slice(2, 14)} and hunter2-hunter2`);
    const { message } = classifyError(error, { redact });
    expect(message).toBe(`failed with ${REDACTED} and ${REDACTED}`);
  });

  it('are one bounded line however long the upstream text', () => {
    const { message } = classifyError(new Error(`${'x'.repeat(100_000)}\nsecond line`));
    expect(message.length).toBeLessThanOrEqual(2000);
    expect(message).not.toContain('\n');
  });
});

describe('sanitizeText', () => {
  it('removes terminal escape sequences: title, erase line, colour, reset, 8-bit CSI, unterminated OSC', () => {
    expect(sanitizeText('a\x1b]0;pwned\x07b', 100)).toBe('ab');
    expect(sanitizeText('a\x1b]2;pwned\x1b\\b', 100)).toBe('ab');
    expect(sanitizeText('failed\r\x1b[2K\x1b[32msync succeeded\x1b[0m', 100)).toBe('failed sync succeeded');
    expect(sanitizeText('a\x1bcb', 100)).toBe('ab');
    expect(sanitizeText('a\u009b2Kb', 100)).toBe('ab');
    expect(sanitizeText('a\u009d0;title\u009cb', 100)).toBe('ab');
    expect(sanitizeText('a\x1b]0;swallowed to the end', 100)).toBe('a');
    expect(sanitizeText('trailing ESC\x1b', 100)).toBe('trailing ESC');
  });

  it('makes every other control visible, line breaks a space, and NUL storable', () => {
    expect(sanitizeText('a\nb\r\nc\td\u2028e', 100)).toBe('a b  c d e');
    expect(sanitizeText('nul\u0000bell\u0007del\u007fc1\u0085\u0090', 100)).toBe('nul\\u0000bell\\u0007del\\u007fc1 ');
    expect(sanitizeText('bidi\u202eevil\u2066', 100)).toBe('bidi\\u202eevil\\u2066');
    expect(sanitizeText('plain text, accents é and emoji 😀', 100)).toBe('plain text, accents é and emoji 😀');
  });

  it('replaces lone surrogates and never splits a pair when cutting', () => {
    expect(sanitizeText('a\ud800b\udc00c', 100)).toBe('a\ufffdb\ufffdc');
    expect(sanitizeText('ab😀cd', 4)).toBe('ab…');
    expect(sanitizeText('abcdef', 4)).toBe('abc…');
    expect(sanitizeText('abcd', 4)).toBe('abcd');
    expect(sanitizeText('x'.repeat(10_000_000), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('runs redact on the cleaned text, so an escape sequence cannot split a secret past it', () => {
    const redact = createSecretRedactor([TEST_KEY]);
    const split = `${TEST_KEY.slice(0, 6)}\x1b[0m${TEST_KEY.slice(6)}`;
    expect(sanitizeText(`key ${split}`, 100, redact)).toBe(`key ${REDACTED}`);
  });
});

describe('errorChainMessage', () => {
  it('cleans every part, bounds the whole, and ends on a cycle', () => {
    const root = new Error('root\x1b]0;title\x07 cause\u0000');
    const error = new Error(`context ${'y'.repeat(10_000)}`, { cause: root });
    const message = errorChainMessage(error);
    expect(message).toMatch(/^context y+…: root cause\\u0000$/);
    expect(message.length).toBeLessThanOrEqual(2000);

    const cyclic = new Error('loop');
    (cyclic as { cause?: unknown }).cause = cyclic;
    expect(errorChainMessage(cyclic)).toBe('loop');
  });

  it('says the errors of an AggregateError without a message of its own', () => {
    const error = new AggregateError([new Error('connect ECONNREFUSED ::1:5432'), new Error('connect ECONNREFUSED 127.0.0.1:5432')], '');
    expect(errorChainMessage(error)).toBe('connect ECONNREFUSED ::1:5432, connect ECONNREFUSED 127.0.0.1:5432');
  });
});

describe('what reaches the database', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());

  it('an error text with a NUL can be stored once it went through errorChainMessage', async () => {
    const { sql } = db;
    const text = errorChainMessage(new Error('upstream said \u0000 and \ud800'));
    const [row] = await sql<{ t: string }[]>`select ${text}::text as t`;
    expect(row!.t).toBe('upstream said \\u0000 and \ufffd');
  });

  it('recordUpstream stores and prints no URL credentials', async () => {
    const { sql } = db;
    const now = new Date('2025-01-01T00:00:00Z');
    await recordUpstream(sql, 'https://user:s3cret-pass@api.example.test/prediction/v1', { allowChange: false, now });
    const stored = await sql<{ api_url: string }[]>`select api_url from prediction.upstream_sources`;
    expect(stored.map((r) => r.api_url)).toEqual(['https://api.example.test/prediction/v1']);

    // A row an older version stored with credentials is not printed with them.
    await sql`insert into prediction.upstream_sources (api_url, first_used_at, last_used_at)
      values ('http://old:0ld-passw0rd@old.example.test/v1', ${now}::timestamptz, ${new Date('2025-02-01T00:00:00Z')}::timestamptz)`;
    const refused = await recordUpstream(sql, 'https://other:an0ther-pass@new.example.test/v1', { allowChange: false, now }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(UpstreamMismatchError);
    const message = (refused as Error).message;
    expect(message).toContain('http://old.example.test/v1');
    expect(message).toContain('PREDICTION_API_URL=https://new.example.test/v1');
    expect(message).not.toMatch(/0ld-passw0rd|an0ther-pass|old:|other:/);
  });
});
