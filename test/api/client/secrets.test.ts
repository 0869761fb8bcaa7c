import { Writable } from 'node:stream';
import { inspect } from 'node:util';

import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ApiKeyMissingError, createPredictionClient, type PredictionClient } from '../../../src/api/client/index.js';
import { type RecordingServer, startRecordingServer } from './helpers/recordingServer.js';
import { TEST_KEY, testClient } from './helpers/testClient.js';
import { wireMarket } from './helpers/wire.js';

/** Every way an error or a log line is turned into text, down the whole cause chain. */
function everyRendering(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 10; depth++) {
    parts.push(String(e), inspect(e, { depth: 10, showHidden: true }), JSON.stringify(e) ?? '');
    if (e instanceof Error) parts.push(e.stack ?? '', e.message);
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join('\n');
}

describe('the API key appears in no log line, error or URL', () => {
  let server: RecordingServer;
  const logLines: string[] = [];
  const hookEvents: string[] = [];
  let client: PredictionClient;

  beforeAll(async () => {
    // Every failure mode, keyed by id. The 401 echoes the key back, as some gateways do.
    server = await startRecordingServer(async (a) => {
      const id = a.path.split('/').pop()!;
      switch (id) {
        case 'E401':
          return { status: 401, json: { code: 401, message: `Invalid API key: ${TEST_KEY}` } };
        case 'E404':
          return { status: 404, json: { message: `no market for key ${TEST_KEY}` } };
        case 'E400':
          return { status: 400, raw: `bad request from ${TEST_KEY}` };
        case 'E500':
          return { status: 500, json: { type: 'internal', message: `upstream said ${TEST_KEY}`, request_id: 'r1' } };
        case 'E429':
          return { status: 429, headers: { 'retry-after': '0.001' }, json: { message: TEST_KEY } };
        case 'CUT':
          return { destroy: true };
        case 'SLOW':
          // Far past the client's timeout, on a timer that keeps nothing alive: closing the server
          // cuts this request instead of waiting for it.
          await new Promise((resolve) => setTimeout(resolve, 30_000).unref());
          return { json: wireMarket('SLOW') };
        case 'HUGE':
          return { json: { ...wireMarket('HUGE'), description: 'x'.repeat(4096) } };
        case 'NOTJSON':
          return { raw: `<html>${TEST_KEY}</html>` };
        case 'SHAPE':
          // The shape error quotes the start of the value: the key's first characters.
          return { json: { data: `x-api-key: ${TEST_KEY}` } };
        default:
          return { json: wireMarket(id) };
      }
    });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logLines.push(chunk.toString());
        callback();
      },
    });
    client = testClient(server.baseUrl, {
      logger: pino({ level: 'trace' }, stream),
      onRequest: (event) => hookEvents.push(JSON.stringify(event)),
      maxAttempts: 2,
      maxRateLimitRetries: 1,
      // Long enough for every other request on a loaded machine: only SLOW may time out.
      requestTimeoutMs: 2_000,
      maxResponseBytes: 2048,
    });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('holds across every failure mode, the fatal 401 last', async () => {
    const errors: unknown[] = [];
    const capture = (p: Promise<unknown>) =>
      p.then(
        () => expect.fail('should have failed'),
        (e: unknown) => errors.push(e),
      );
    await capture(client.getMarket('E404'));
    await capture(client.getMarket('E400'));
    await capture(client.getMarket('E500'));
    await capture(client.getMarket('E429'));
    await capture(client.getMarket('CUT'));
    await capture(client.getMarket('SLOW'));
    await capture(client.getMarket('HUGE'));
    await capture(client.getMarket('NOTJSON'));
    await capture(client.listEventMarkets('SHAPE'));
    await capture(client.searchEvents('x', { limit: 99 }));
    await capture(client.getMarket('E401'));
    await capture(client.getMarket('AFTER'));
    await client.close();
    await capture(client.getMarket('CLOSED'));
    try {
      createPredictionClient({ baseUrl: server.baseUrl });
    } catch (error) {
      errors.push(error);
    }

    expect(errors.map((e) => (e as Error).name)).toEqual([
      'ApiNotFoundError',
      'ApiBadRequestError',
      'ApiServerError',
      'ApiRateLimitedError',
      'ApiNetworkError',
      'ApiTimeoutError',
      'ApiResponseTooLargeError',
      'ApiInvalidJsonError',
      'ApiResponseShapeError',
      'ApiRequestInvalidError',
      'ApiKeyRejectedError',
      'ApiKeyRejectedError',
      'ApiKeyRejectedError',
      'ApiKeyMissingError',
    ]);
    expect(errors.at(-1)).toBeInstanceOf(ApiKeyMissingError);
    // The server's own message is kept, with the key blanked out.
    expect((errors[10] as Error).message).toContain('Invalid API key: [REDACTED]');

    // Not the key, nor any piece of 8 characters of it (a message quoting the start of a value).
    const pieces = Array.from({ length: TEST_KEY.length - 7 }, (_, i) => TEST_KEY.slice(i, i + 8));
    const leaks = (text: string) => pieces.filter((p) => text.includes(p));
    for (const error of errors) expect(leaks(everyRendering(error))).toEqual([]);
    expect(logLines.length).toBeGreaterThan(10);
    for (const line of logLines) expect(leaks(line)).toEqual([]);
    expect(hookEvents.length).toBeGreaterThan(10);
    for (const event of hookEvents) expect(leaks(event)).toEqual([]);
    for (const arrival of server.arrivals) expect(arrival.url).not.toContain(TEST_KEY);
    expect(JSON.stringify(client.stats())).not.toContain(TEST_KEY);
  });
});
