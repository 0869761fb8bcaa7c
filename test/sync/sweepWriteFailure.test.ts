/** A write that fails during the order-book sweep ends it: fetching stops, and its error is the one reported. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import { parseEvent } from '../../src/api/parse.js';
import type { Sql } from '../../src/db/connect.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { BOOKS_PER_FETCH, sweepOrderBooks } from '../../src/sync/sweepOrderBooks.js';
import { type RecordingServer, type Reply, startRecordingServer } from '../api/client/helpers/recordingServer.js';
import { requestedId, wireEvent, wireMarket } from '../api/client/helpers/wire.js';
import { sweepContext } from '../helpers/sweepContext.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const MARKETS = 300;
/** A book of one level a side: 2 levels. */
const BOOK = { yes: [[65, 10]], no: [[30, 5]] };
/** A write after every fourth fetch batch (4 × 16 books × 2 levels = 128 levels). */
const LEVELS_PER_WRITE = 100;
/** Books fetched before the first write: the books after them are requested while it runs. */
const BEFORE_FIRST_WRITE = 4 * BOOKS_PER_FETCH;
const db = await useTestDatabase();
let server: RecordingServer | undefined;
let client: PredictionClient | undefined;
let releaseHeld: (() => void) | undefined;

beforeAll(async () => {
  const events = Array.from({ length: MARKETS }, (_, i) =>
    parseEvent(wireEvent(`E-${i}`, { markets: [wireMarket(`M-${String(i).padStart(3, '0')}`)] }), { provider: 'polymarket' }),
  );
  await writeEvents(db.sql, { runId: null, endpoint: '/events', events, observedAt: new Date() });
});
afterEach(async () => {
  // Answers still held (a test that failed before the refusal) must not keep the client waiting.
  releaseHeld?.();
  await client?.close();
  await server?.close();
});

/**
 * The test database's pool, calling `onRefused` once a transaction ended in the error `refused`.
 * The writer records that failure in promise callbacks chained on the transaction, which all run
 * before any answer released now can reach the client: from then on the sweep can see the failure.
 */
function noticingRefusal(refused: Error, onRefused: () => void): Sql {
  return new Proxy(db.sql, {
    get(target, key, receiver) {
      if (key !== 'begin') return Reflect.get(target, key, receiver) as unknown;
      return (...args: Parameters<Sql['begin']>) => {
        const transaction = target.begin(...args);
        transaction.catch((error: unknown) => {
          if (error === refused) onRefused();
        });
        return transaction;
      };
    },
  });
}

/** Sweeps with a fence that refuses every write; returns the error and how many books were asked for. */
async function sweepRefused(reply: (id: string) => Reply) {
  let requests = 0;
  const refusalEnded = new Promise<void>((resolve) => (releaseHeld = resolve));
  server = await startRecordingServer(async (a) => {
    requests += 1;
    // The books after the first write are answered only once that write has failed, however long
    // it takes: the sweep must then stop at the first batch it gets, whatever the machine's speed.
    if (a.index >= BEFORE_FIRST_WRITE) await refusalEnded;
    return reply(requestedId(a.path));
  });
  client = createPredictionClient({ baseUrl: server.baseUrl, allowKeyless: true, rateLimit: { requests: 1_000_000 }, concurrency: 64 });
  const refused = new Error('the lease is gone');
  const ctx = await sweepContext(noticingRefusal(refused, releaseHeld!), client, {
    fence: async () => {
      throw refused;
    },
  });
  const error = await sweepOrderBooks(ctx, { limit: null, levelsPerWrite: LEVELS_PER_WRITE }).then(
    () => undefined,
    (e: unknown) => e,
  );
  const [stored] = await db.sql<{ n: number }[]>`select count(*)::int as n from prediction.orderbook_snapshots`;
  return { error, refused, requests, stored: stored!.n };
}

describe('order-book sweep whose writes fail', () => {
  it('stops fetching at the batch after the failed write, not at the next write, and reports its error', async () => {
    const { error, refused, requests, stored } = await sweepRefused(() => ({ json: BOOK }));
    expect(error).toBe(refused);
    expect(stored).toBe(0);
    // The first write goes after 4 batches, while the 5th is fetched; that batch arrives after the
    // failure, which it stops at (the 6th is already being fetched). Waiting for the next write
    // would have asked for 9 batches.
    expect(requests).toBeLessThanOrEqual(6 * BOOKS_PER_FETCH);
  });

  it('reports the failed write rather than a failure of the fetching that came after it', async () => {
    // Books after the first write's 64 are refused by the upstream (a 400 stops the sweep).
    const { error, refused } = await sweepRefused((id) =>
      Number(id.slice(2)) < BEFORE_FIRST_WRITE ? { json: BOOK } : { status: 400, json: { error: 'bad request' } },
    );
    expect(error).toBe(refused);
  });
});
