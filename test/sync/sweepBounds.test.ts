import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import { parseEvent } from '../../src/api/parse.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { BOOKS_PER_FETCH, sweepOrderBooks } from '../../src/sync/sweepOrderBooks.js';
import { type RecordingServer, type Reply, startRecordingServer } from '../api/client/helpers/recordingServer.js';
import { requestedId, wireEvent, wireMarket } from '../api/client/helpers/wire.js';
import { sweepContext } from '../helpers/sweepContext.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const MARKETS = 60;
const db = await useTestDatabase();
let server: RecordingServer | undefined;
let client: PredictionClient | undefined;

beforeAll(async () => {
  const events = Array.from({ length: MARKETS }, (_, i) =>
    parseEvent(wireEvent(`E-${i}`, { markets: [wireMarket(`M-${i}`)] }), { provider: 'polymarket' }),
  );
  await writeEvents(db.sql, { runId: null, endpoint: '/events', events, observedAt: new Date() });
});
afterEach(async () => {
  await client?.close();
  await server?.close();
});

/** Sweeps every open market's book against `reply`; returns the progress lines (one per write) and the most requests the server had open at once. */
async function sweep(reply: (id: string) => Reply, options: { concurrency: number }) {
  let open = 0;
  let mostOpen = 0;
  server = await startRecordingServer(async (a) => {
    mostOpen = Math.max(mostOpen, ++open);
    await new Promise((resolve) => setTimeout(resolve, 20));
    open -= 1;
    return reply(requestedId(a.path));
  });
  client = createPredictionClient({
    baseUrl: server.baseUrl,
    allowKeyless: true,
    rateLimit: { requests: 1_000_000 },
    concurrency: options.concurrency,
  });
  const writes: string[] = [];
  const ctx = await sweepContext(db.sql, client, { progress: (line) => writes.push(line) });
  const done = await sweepOrderBooks(ctx, { limit: null });
  return { done, writes, mostOpen, totals: ctx.totals };
}

describe('order-book sweep bounds: memory set by settings, not by what the upstream sends', () => {
  it('rejected books count toward a write: they are quarantined as the sweep goes, not held to its end', async () => {
    // Every book unreadable (a book is an object or null): each holds its payload until it is written.
    const { writes, totals } = await sweep(() => ({ json: ['not', 'a', 'book'] }), { concurrency: 16 });
    expect(totals.writes.recordsRejected).toBe(MARKETS);
    // A write after every ten rejected books (REJECTED_BOOK_LEVELS), give or take a fetch batch.
    expect(writes.length).toBeGreaterThanOrEqual(MARKETS / (10 + BOOKS_PER_FETCH));
    const [quarantined] = await db.sql`select count(*)::int as n from prediction.rejected_records where endpoint = '/orderbook/{marketId}'`;
    expect(quarantined!.n).toBe(MARKETS);
  });

  it(`asks for at most 2 × ${BOOKS_PER_FETCH} books at once (a batch and the next), whatever the client concurrency`, async () => {
    const { done, mostOpen } = await sweep(() => ({ json: { yes: [[65, 10]], no: [[30, 5]] } }), { concurrency: 64 });
    expect(done).toBe(MARKETS);
    expect(mostOpen).toBeLessThanOrEqual(2 * BOOKS_PER_FETCH);
    expect(mostOpen).toBeGreaterThan(1);
  });
});
