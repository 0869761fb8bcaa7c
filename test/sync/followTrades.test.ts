import { afterAll, describe, expect, it } from 'vitest';

import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import type { TradedBook } from '../../src/domain/types.js';
import { jobWork } from '../../src/service/jobKinds.js';
import { TradedBooks } from '../../src/sync/TradedBooks.js';
import { type RecordingServer, startRecordingServer } from '../api/client/helpers/recordingServer.js';
import { type FixtureTrade, liveFixture } from '../helpers/replayServer.js';
import { sweepContext } from '../helpers/sweepContext.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
const recorded = liveFixture<{ data: FixtureTrade[] }>('trades-2026-07.json');
let server: RecordingServer | undefined;
let client: PredictionClient | undefined;

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('the trades job', () => {
  it("tells the process's sweep the market of each new trade at its latest, once", async () => {
    server = await startRecordingServer(() => ({ json: recorded }));
    client = createPredictionClient({ baseUrl: server.baseUrl, allowKeyless: true, rateLimit: { requests: 1_000_000 } });
    const traded = new TradedBooks();
    const told: TradedBook[] = [];
    const unlisten = traded.listen((books) => told.push(...books));
    // A deadline sooner than the next poll the feed's pace asks for: one poll a run.
    const run = async () =>
      jobWork(
        'trades',
        { orderBookMaxAgeSec: 3600, maxRejectedPercent: 5 },
        traded,
      )(await sweepContext(db.sql, client!), new Date(Date.now() + 1_000));

    await run();
    const latest = new Map<string, number>();
    for (const r of recorded.data) latest.set(r.marketId, Math.max(latest.get(r.marketId) ?? 0, r.timestamp * 1000));
    expect(new Map(told.map((b) => [b.marketId, b.tradedAtMs]))).toEqual(latest);
    expect(told).toHaveLength(latest.size);

    // The same answer again: nothing new, nothing told.
    await run();
    expect(told).toHaveLength(latest.size);
    // A listener that stopped hears nothing more.
    unlisten();
    traded.tell([{ marketId: 'M-1', tradedAtMs: 0 }]);
    expect(told).toHaveLength(latest.size);
  });
});
