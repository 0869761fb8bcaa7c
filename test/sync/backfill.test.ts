import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PredictionClient } from '../../src/api/client/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { backfillClosedEvents, type BackfillOutcome } from '../../src/sync/backfillClosedEvents.js';
import { runJob } from '../../src/sync/runJob.js';
import { runCli } from '../helpers/runCli.js';
import { cliEnv, startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

/**
 * `backfill --since`: the events that ended since then, with their results, from GET
 * /events/closed as far back as the service answers; resumable; and said plainly when the service
 * answers less far back than asked.
 */
let sim: Simulator;
let client: PredictionClient;
const CLI_TIMEOUT_MS = 150_000;

beforeAll(async () => {
  let newClient: () => PredictionClient;
  // Pages of 7 on the feed: a backfill of a few dozen events takes several pages.
  ({ sim, newClient } = await startHarness({ shape: 'live', seed: 23, markets: 1500, maxLimit: 7 }));
  client = newClient();
  sim.world.step(3 * 86_400);
});
afterAll(async () => {
  await client.close();
  await sim.stop();
});

const PROVIDERS = ['kalshi', 'polymarket'] as const;
const sinceSec = () => sim.world.nowSec - 10 * 86_400;
/** What the feed holds since then: every event with a market closed or settled after it. */
const ended = () => PROVIDERS.flatMap((p) => sim.world.closedEvents(p, sinceSec()));

function backfill(db: TestDatabase, c: PredictionClient, signal?: AbortSignal): Promise<BackfillOutcome[]> {
  let outcomes: BackfillOutcome[] = [];
  return runJob(
    db.sql,
    c,
    'backfill',
    { providers: PROVIDERS, categories: ['all'], signal, now: () => new Date(sim.world.nowSec * 1000) },
    async (ctx) => {
      outcomes = await backfillClosedEvents(ctx, { since: new Date(sinceSec() * 1000) });
    },
  ).then(() => outcomes);
}

describe('backfill of resolutions', () => {
  it('stores every event that ended since --since with its results, and resumes where a stopped one left off', async () => {
    const db = await createTestDatabase();
    try {
      expect(sim.world.closedEvents('kalshi', sinceSec()).length).toBeGreaterThan(14);
      // Stopped after its second page of the first provider.
      const stop = new AbortController();
      let pages = 0;
      const stopping = client.observedBy((e) => {
        if (e.endpoint === '/events/closed' && e.status === 200 && ++pages === 2) stop.abort();
      });
      const first = await backfill(db, stopping, stop.signal);
      expect(first[0]).toMatchObject({ provider: 'kalshi', finished: false, resumedAt: 0 });
      const [state] = await db.sql`select next_start, finished_at from prediction.closed_feed_backfills where provider = 'kalshi'`;
      // The first page committed; the second too unless the stop came before its write.
      expect([7, 14]).toContain(state!.next_start);
      expect(state!.finished_at).toBeNull();

      sim.resetRequests();
      const second = await backfill(db, client);
      const starts = sim.requests
        .filter((r) => r.path.endsWith('/events/closed'))
        .map((r) => new URLSearchParams(r.query))
        .filter((q) => q.get('provider') === 'kalshi')
        .map((q) => Number(q.get('start')));
      expect(starts[0]).toBe(state!.next_start);
      expect(second.map((o) => [o.provider, o.finished, o.shortBy])).toEqual([
        ['kalshi', true, null],
        ['polymarket', true, null],
      ]);

      const stored = await db.sql`select event_id from prediction.events order by event_id collate "C"`;
      expect(stored.map((r) => r.event_id)).toEqual(
        ended()
          .map((e) => e.eventId)
          .sort((a, b) => (a < b ? -1 : 1)),
      );
      const settled = ended()
        .flatMap((e) => e.marketIds.map((id) => sim.world.market(id)!))
        .filter((m) => m.result !== null);
      const results =
        await db.sql`select market_id, result from prediction.markets where result is not null order by market_id collate "C"`;
      expect(results.map((r) => [r.market_id, r.result])).toEqual(
        settled.map((m) => [m.marketId, m.result]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
      );
      // A third run reads nothing again.
      sim.resetRequests();
      const third = await backfill(db, client);
      expect(third.filter((o) => !o.alreadyDone)).toEqual([]);
      expect(sim.requests.filter((r) => r.path.endsWith('/events/closed'))).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('npm run cli -- backfill --since: says plainly when the service answers less far back than asked', async () => {
    const db = await createTestDatabase();
    try {
      const env = cliEnv(db.url, sim.url, { PREDICTION_PROVIDERS: 'polymarket' });
      const run = await runCli(['backfill', '--since', '2020-01-01'], env, CLI_TIMEOUT_MS);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^polymarket: \d+ of \d+ events since 2020-01-01T00:00:00\.000Z complete$/m);
      expect(run.stdout).toMatch(/^backfill succeeded: run \d+, /m);
      expect(run.stderr).toMatch(
        /^prediction-ingest: polymarket: GET \/events\/closed answered events back to \S+ only, not to 2020-01-01T00:00:00\.000Z as asked: the service keeps no older ones$/m,
      );
      const bad = await runCli(['backfill', '--since', 'yesterday'], env, CLI_TIMEOUT_MS);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--since "yesterday": Must be a duration before now');
    } finally {
      await db.close();
    }
  });
});
