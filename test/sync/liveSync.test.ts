import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PredictionClient } from '../../src/api/client/index.js';
import { CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import type { Simulator } from '../../src/simulator/index.js';
import { runCli } from '../helpers/runCli.js';
import { cliEnv, startHarness, syncOnce } from '../helpers/syncHarness.js';
import { createTestDatabase } from '../helpers/testDatabase.js';

/** Sync against the simulator speaking what the live service sends today. */
let sim: Simulator;
let client: PredictionClient;

beforeAll(async () => {
  let newClient: () => PredictionClient;
  ({ sim, newClient } = await startHarness({ shape: 'live', seed: 11, markets: 200 }));
  client = newClient();
});
afterAll(async () => {
  await client.close();
  await sim.stop();
});

const liveSync = (sql: Parameters<typeof syncOnce>[0]) => syncOnce(sql, client, sim, { categories: ['all'] });
const listed = () => sim.world.events().filter((e) => e.isActive);
/** What a sync is shown: the listings, and the closed-events feed over its default span (the last 24 hours). */
const shown = () => {
  const closed = (['kalshi', 'polymarket'] as const).flatMap((p) => sim.world.closedEvents(p, sim.world.nowSec - 86_400));
  return [...new Map([...listed(), ...closed].map((e) => [e.eventId, e])).values()];
};

describe('sync on the live shapes', () => {
  it('stores every listed event and market, in every category, with nothing quarantined', async () => {
    const db = await createTestDatabase();
    try {
      const result = await liveSync(db.sql);
      expect(result.status).toBe('succeeded');
      expect(result.totals.recordsRejected).toBe(0);
      const events = await db.sql`select event_id, category from prediction.events order by event_id`;
      expect(events.map((e) => e.event_id)).toEqual(
        shown()
          .map((e) => e.eventId)
          .sort(),
      );
      const markets = await db.sql`select market_id from prediction.markets order by market_id`;
      expect(markets.map((m) => m.market_id)).toEqual(
        shown()
          .flatMap((e) => e.marketIds)
          .sort(),
      );
      const [{ n }] = (await db.sql`select count(*)::int as n from prediction.rejected_records`) as unknown as [{ n: number }];
      expect(n).toBe(0);

      // Categories outside the documented list are stored, and covered by the crawl.
      const undocumented = [...new Set(events.map((e) => e.category as string))].filter(
        (c) => !(CATEGORIES as readonly string[]).includes(c),
      );
      expect(undocumented.length).toBeGreaterThan(0);
      const coverage = await db.sql`select provider, category, complete from prediction.crawl_coverage where run_id = ${result.runId}`;
      for (const provider of KNOWN_PROVIDERS) {
        const seen = new Set(events.filter((e) => sim.world.event(e.event_id)!.provider === provider).map((e) => e.category as string));
        const covered = coverage.filter((c) => c.provider === provider);
        expect(covered.map((c) => c.category).sort()).toEqual(['all', ...seen].sort());
        expect(covered.filter((c) => !c.complete)).toEqual([]);
      }
    } finally {
      await db.close();
    }
  });

  it('stores exact order-book levels from the dollar arrays, merged only where a price repeats', async () => {
    const db = await createTestDatabase();
    try {
      await liveSync(db.sql);
      const books = await db.sql`select distinct on (market_id) market_id, snapshot_id from prediction.orderbook_snapshots
        where not is_null order by market_id, observed_at desc`;
      expect(books.length).toBeGreaterThan(0);
      let subCent = 0;
      for (const { market_id: marketId, snapshot_id: snapshotId } of books.slice(0, 40)) {
        const wire = sim.world.orderBookBody(marketId) as { yes_dollars: [string, number][]; no_dollars: [string, number][] };
        const stored = await db.sql`select side, price_cents::text as price, size::text as size from prediction.orderbook_levels
          where market_id = ${marketId} and snapshot_id = ${snapshotId} order by side, price_cents desc`;
        for (const side of ['yes', 'no'] as const) {
          const levels = side === 'yes' ? wire.yes_dollars : wire.no_dollars;
          const expected = new Map<number, number>();
          for (const [dollars, size] of levels)
            expected.set(Math.round(Number(dollars) * 1000), (expected.get(Math.round(Number(dollars) * 1000)) ?? 0) + size);
          const got = stored.filter((l) => l.side === side);
          expect(got.map((l) => Math.round(Number(l.price) * 10))).toEqual([...expected.keys()].sort((a, b) => b - a));
          for (const l of got) expect(Number(l.size)).toBeCloseTo(expected.get(Math.round(Number(l.price) * 10))!, 6);
          subCent += got.filter((l) => l.price.includes('.')).length;
        }
      }
      expect(subCent).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  });

  it('stores a closed market quoting four zeros as no quote, never as a $0 price', async () => {
    const db = await createTestDatabase();
    try {
      // Markets close and leave the listings: their own detail is where their final state shows.
      await liveSync(db.sql);
      sim.world.step(3 * 86_400);
      await liveSync(db.sql);
      const closed = await db.sql`select m.market_id, p.buy_yes_micro_usd, p.sell_yes_micro_usd, p.buy_no_micro_usd, p.sell_no_micro_usd
        from prediction.markets m join lateral (select * from prediction.pricing_snapshots s where s.market_id = m.market_id
          order by observed_at desc limit 1) p on true
        where m.status = 'closed'`;
      expect(closed.length).toBeGreaterThan(0);
      for (const row of closed) {
        expect([row.buy_yes_micro_usd, row.sell_yes_micro_usd, row.buy_no_micro_usd, row.sell_no_micro_usd]).toEqual([
          null,
          null,
          null,
          null,
        ]);
      }
      const [{ zero }] =
        (await db.sql`select count(*)::int as zero from analytics.price_history where buy_yes_usd = 0 and sell_yes_usd = 0`) as unknown as [
          { zero: number },
        ];
      expect(zero).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('records each endpoint’s shape and counts: records of today’s shape are accepted without drift, though tagged against the spec', async () => {
    const db = await createTestDatabase();
    try {
      const result = await liveSync(db.sql);
      const shapes = await db.sql`select endpoint, paths, changes from prediction.upstream_shapes`;
      const endpoints = new Set(shapes.map((s) => s.endpoint));
      expect([...endpoints]).toEqual(expect.arrayContaining(['/events', '/events#markets', '/orderbook/{marketId}']));
      expect(shapes.filter((s) => (s.changes as unknown[]).length > 0)).toEqual([]);
      const eventPaths = shapes.filter((s) => s.endpoint === '/events').flatMap((s) => s.paths as string[]);
      expect(eventPaths).toContain('volumeUsd:string');
      expect(eventPaths).not.toContain('multipleWinners:boolean');
      expect(await db.sql`select * from analytics.upstream_drift`).toEqual([]);
      const [run] = await db.sql`select status, records_by_endpoint from prediction.ingest_runs where run_id = ${result.runId}`;
      expect(run!.status).toBe('succeeded');
      const byEndpoint = run!.records_by_endpoint as Record<string, { accepted: number; accepted_with_drift: number; rejected: number }>;
      expect(byEndpoint['/events']).toEqual({ accepted: listed().length, accepted_with_drift: 0, rejected: 0 });
      expect(byEndpoint['/events#markets']).toMatchObject({ accepted_with_drift: 0, rejected: 0 });
      // The drift column still says how each record differs from the spec (series from metadata, no winner…).
      const [{ untagged }] = (await db.sql`select count(*)::int as untagged from prediction.events where drift = '{}'`) as unknown as [
        { untagged: number },
      ];
      expect(untagged).toBe(0);
    } finally {
      await db.close();
    }
  });
});

describe('a run that rejects most of what it reads', () => {
  it('is recorded as degraded, naming the most common reasons', async () => {
    const db = await createTestDatabase();
    sim.faults.set({ malformedRate: 0.6 });
    try {
      const result = await liveSync(db.sql);
      expect(result.status).toBe('degraded');
      expect(result.degradation).toMatch(/^rejected \d+ of \d+ records \(\d+\.\d %, more than 5 %\)/);
      expect(result.degradation).toMatch(/most common reasons: .+ \(\d+\)/);
      const [run] = await db.sql`select status, error from prediction.ingest_runs where run_id = ${result.runId}`;
      expect(run).toEqual({ status: 'degraded', error: result.degradation });
      // What could be read is stored all the same.
      const [{ n }] = (await db.sql`select count(*)::int as n from prediction.markets`) as unknown as [{ n: number }];
      expect(n).toBeGreaterThan(0);
    } finally {
      sim.faults.set({ malformedRate: 0 });
      await db.close();
    }
  });

  it('makes the sync command exit 6 with the reasons, never "sync succeeded"', async () => {
    const db = await createTestDatabase();
    sim.faults.set({ malformedRate: 0.6 });
    try {
      const env = cliEnv(db.url, sim.url);
      const result = await runCli(['sync', '--max-orderbooks', '0'], env, 120_000);
      expect(result.code).toBe(6);
      expect(result.stdout).toMatch(/^sync degraded: run \d+/);
      expect(result.stdout).not.toContain('sync succeeded');
      expect(result.stderr).toMatch(/is degraded: rejected \d+ of \d+ records .*most common reasons: /);
      // The threshold is the operator's: at 100 % the same upstream only counts its rejections.
      const tolerant = await runCli(['sync', '--max-orderbooks', '0'], { ...env, MAX_REJECTED_PERCENT: '100' }, 120_000);
      expect(tolerant.stderr).toBe('');
      expect(tolerant.code).toBe(0);
      expect(tolerant.stdout).toMatch(/^sync succeeded: .* rejected [1-9]\d*/);
    } finally {
      sim.faults.set({ malformedRate: 0 });
      await db.close();
    }
  });
});
