import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import { runSyncCycle } from '../../src/sync/runSyncCycle.js';
import { type Arrival, type RecordingServer, startRecordingServer } from '../api/client/helpers/recordingServer.js';
import { wireEvent, wireMarket } from '../api/client/helpers/wire.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

/**
 * An upstream whose detail endpoints answer for another record: GET /markets/A with market
 * VICTIM, GET /events/GONE with event VICTIM-EVENT, each altered. A sync must quarantine those
 * answers under A and GONE and leave the victims as the listing had them.
 */
const db = await useTestDatabase();
let server: RecordingServer;
let client: PredictionClient;

/** A market the listing shows without metadata: its detail is fetched (GET /markets/A). */
const bareMarket = { marketId: 'A', status: 'open', result: null, openTime: 1_700_000_000, closeTime: 1_900_000_000, settlementTime: 0 };
const victim = () =>
  wireEvent('VICTIM-EVENT', {
    metadata: { eventId: 'VICTIM-EVENT', title: 'The victim event', subtitle: '', imageUrl: 'i', isLive: false },
    markets: [wireMarket('VICTIM')],
  });
let listed: Record<string, unknown>[] = [];

function answer(a: Arrival) {
  const path = a.path.replace('/prediction/v1', '');
  if (path === '/events')
    return { json: { data: listed, pagination: { start: 0, end: listed.length, total: listed.length, hasNext: false } } };
  if (path === '/markets/A') {
    const hijacked = wireMarket('VICTIM', { status: 'closed', eventId: 'A-EVENT' });
    return { json: { ...hijacked, metadata: { ...(hijacked.metadata as object), title: 'Hijacked', status: 'closed' } } };
  }
  if (path === '/events/GONE') {
    return {
      json: wireEvent('VICTIM-EVENT', {
        isActive: false,
        metadata: { eventId: 'VICTIM-EVENT', title: 'Hijacked event', subtitle: '', imageUrl: 'i', isLive: false },
      }),
    };
  }
  if (path.startsWith('/orderbook/')) return { json: null };
  return { status: 404, json: { message: 'not found' } };
}

beforeAll(async () => {
  server = await startRecordingServer(answer);
  client = createPredictionClient({ baseUrl: server.baseUrl, allowKeyless: true, rateLimit: { requests: 1_000_000 } });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const sync = () => runSyncCycle(db.sql, client, { providers: ['polymarket'], categories: ['all'], maxOrderBooks: null });

describe('a detail answer naming another record', () => {
  it('GET /markets/A answering VICTIM: quarantined under A, VICTIM untouched', async () => {
    listed = [victim(), wireEvent('A-EVENT', { markets: [bareMarket] })];
    const result = await sync();
    expect(server.arrivals.map((a) => a.path)).toContain('/prediction/v1/markets/A');
    const [row] = await db.sql`select event_id, status, title from prediction.markets where market_id = 'VICTIM'`;
    expect(row).toEqual({ event_id: 'VICTIM-EVENT', status: 'open', title: 'Market VICTIM' });
    const quarantined = await db.sql`select entity_id, reason from prediction.rejected_records where endpoint = '/markets/{marketId}'`;
    expect(quarantined).toEqual([{ entity_id: 'A', reason: 'marketId: differs from the id requested, got "VICTIM"' }]);
    expect(result.totals.recordsRejected).toBe(1);
  });

  it('GET /events/GONE answering VICTIM-EVENT: quarantined under GONE, VICTIM-EVENT untouched', async () => {
    // GONE is listed once, then leaves the listing: the next cycle asks for its detail.
    listed = [victim(), wireEvent('GONE')];
    await sync();
    listed = [victim()];
    await sync();
    expect(server.arrivals.map((a) => a.path)).toContain('/prediction/v1/events/GONE');
    const [row] = await db.sql`select title, is_active from prediction.events where event_id = 'VICTIM-EVENT'`;
    expect(row).toEqual({ title: 'The victim event', is_active: true });
    const quarantined = await db.sql`select entity_id, reason from prediction.rejected_records where endpoint = '/events/{eventId}'`;
    expect(quarantined).toEqual([{ entity_id: 'GONE', reason: 'eventId: differs from the id requested, got "VICTIM-EVENT"' }]);
  });
});
