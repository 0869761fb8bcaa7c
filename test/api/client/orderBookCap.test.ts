import { afterEach, describe, expect, it } from 'vitest';

import { ApiResponseTooLargeError, type PredictionClient } from '../../../src/api/client/index.js';
import { HOSTILE_SHAPE } from '../../../src/wire/recordShape.js';
import { type RecordingServer, startRecordingServer } from './helpers/recordingServer.js';
import { testClient } from './helpers/testClient.js';
import { requestedId, wireMarket } from './helpers/wire.js';

const CAP = 64 * 1024;
/** A book of well-formed levels, about 4 × CAP of JSON. */
const bigBook = JSON.stringify({ yes: Array.from({ length: 30_000 }, (_, i) => [i % 100, i + 1]), no: [] });

describe('maxOrderBookBytes: a book too large to be valid is not read, and is quarantined instead of failing', () => {
  let server: RecordingServer;
  let client: PredictionClient;
  afterEach(async () => {
    await client?.abort();
    await server?.close();
  });

  it.each([
    ['declared in content-length', undefined],
    ['only found while reading a chunked body', 5],
  ])('a body over the cap, %s, comes back as a rejected book under the requested id', async (_label, trickleMs) => {
    server = await startRecordingServer(() => ({ raw: bigBook, trickleMs }));
    client = testClient(server.baseUrl, { maxOrderBookBytes: CAP });
    const book = await client.getOrderBook('M-1');
    expect(book.ok).toBe(false);
    if (book.ok) return;
    expect(book.rejection).toEqual({
      entityId: 'M-1',
      reason: `body: larger than the ${CAP} bytes an order book may take (not read)`,
      payload: { truncated: true, overBytes: CAP },
      shape: HOSTILE_SHAPE,
    });
    // Not retried: the next answer would be as large.
    expect(server.arrivals).toHaveLength(1);
  });

  it('a book under the cap is read as usual, and other endpoints keep the general cap', async () => {
    server = await startRecordingServer((a) =>
      a.path.includes('/orderbook/')
        ? { raw: JSON.stringify({ yes: [[65, 10]], no: [] }) }
        : { json: wireMarket(requestedId(a.path), { notes: Array.from({ length: 4 }, () => 'x'.repeat(CAP / 2)) }) },
    );
    client = testClient(server.baseUrl, { maxOrderBookBytes: CAP });
    await expect(client.getOrderBook('M-1')).resolves.toMatchObject({ ok: true, value: { yes: [{ priceCents: '65', size: '10' }] } });
    await expect(client.getMarket('M-2')).resolves.toMatchObject({ ok: true });
  });

  it('the general cap still throws for every other endpoint', async () => {
    server = await startRecordingServer((a) => ({
      json: wireMarket(requestedId(a.path), { notes: Array.from({ length: 4 }, () => 'x'.repeat(CAP / 2)) }),
    }));
    client = testClient(server.baseUrl, { maxResponseBytes: CAP });
    await expect(client.getMarket('M-1')).rejects.toBeInstanceOf(ApiResponseTooLargeError);
  });
});
