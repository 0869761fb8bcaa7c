import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { createPredictionClient } from '../../src/api/client/index.js';
import { classifyError } from '../../src/cli/classifyError.js';
import { ExitCode } from '../../src/cli/exitCodes.js';
import { checkedClock } from '../../src/db/checkedClock.js';
import { ClockSkewError } from '../../src/db/ClockSkewError.js';
import { CONCRETE_CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import { maintainPartitions } from '../../src/partitions/maintainPartitions.js';
import type { Simulator } from '../../src/simulator/index.js';
import { ensureMonthPartitions } from '../../src/sql/core/ensureMonthPartitions.js';
import { runJob } from '../../src/sync/runJob.js';
import { runSyncCycle } from '../../src/sync/runSyncCycle.js';
import { runCli } from '../helpers/runCli.js';
import { API_KEY, cliEnv, startHarness } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
let sim: Simulator;
beforeAll(async () => {
  ({ sim } = await startHarness({ seed: 5, markets: 30 }));
});
afterAll(() => sim.stop());

const YEAR_MS = 365 * 86_400_000;
const SKEWED_CLOCK = fileURLToPath(new URL('../helpers/skewedClock.mjs', import.meta.url));

const env = (extra: Record<string, string> = {}) => cliEnv(db.url, sim.url, extra);

async function priceRowsThisMonth(): Promise<number> {
  const [row] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from prediction.pricing_snapshots where observed_at >= date_trunc('month', now())`;
  return row!.n;
}

describe('one clock', () => {
  beforeEach(async () => {
    await db.sql`truncate prediction.ingest_runs, prediction.dropped_partitions cascade`;
    await db.sql`truncate prediction.pricing_snapshots, prediction.orderbook_snapshots, prediction.market_state_history`;
  });

  it('a run on a host clock 3 years ahead writes nothing and fails with exit 8; the current month stays', async () => {
    const first = await runCli(['sync', '--max-orderbooks', '0'], env(), 120_000);
    expect(first.code).toBe(0);
    const before = await priceRowsThisMonth();
    expect(before).toBeGreaterThan(0);
    const runsBefore = await db.sql`select run_id from prediction.ingest_runs`;

    const skewed = await runCli(
      ['sync', '--max-orderbooks', '0'],
      env({ PREDICTION_RETENTION_MONTHS: '12', NODE_OPTIONS: `--import=${SKEWED_CLOCK}`, CLOCK_SKEW_MS: String(3 * YEAR_MS) }),
      120_000,
    );
    expect(skewed.code).toBe(ExitCode.clockSkew);
    expect(skewed.stderr).toMatch(/host clock is \d+\.\d s ahead of the database's \(tolerance 5 s, PREDICTION_CLOCK_TOLERANCE_SEC\)/);
    expect(await priceRowsThisMonth()).toBe(before);
    expect(await db.sql`select 1 from prediction.dropped_partitions`).toHaveLength(0);
    // Not even a run row: nothing is stamped with the wrong time.
    expect(await db.sql`select run_id from prediction.ingest_runs`).toEqual(runsBefore);
    expect(await db.sql`select 1 from prediction.markets where last_seen_at > now()`).toHaveLength(0);
  }, 300_000);

  it('a host clock a little off within the tolerance runs, and stamps the database clock', async () => {
    const result = await runCli(
      ['sync', '--max-orderbooks', '0'],
      env({ NODE_OPTIONS: `--import=${SKEWED_CLOCK}`, CLOCK_SKEW_MS: String(60_000), PREDICTION_CLOCK_TOLERANCE_SEC: '120' }),
      120_000,
    );
    expect(result.code).toBe(0);
    // The host ran a minute ahead; the run and its rows carry the database's time.
    const [run] = await db.sql<{ ahead: boolean }[]>`select max(started_at) > now() as ahead from prediction.ingest_runs`;
    expect(run!.ahead).toBe(false);
    expect(await db.sql`select 1 from prediction.markets where last_seen_at > now()`).toHaveLength(0);
  }, 300_000);

  it('checkedClock refuses a host clock beyond the tolerance either way, and otherwise follows the database', async () => {
    const real = Date.now;
    await expect(checkedClock(db.sql, { hostNowMs: () => real() + 6_000 })).rejects.toThrow(ClockSkewError);
    await expect(checkedClock(db.sql, { hostNowMs: () => real() - 6_000 })).rejects.toThrow(/s behind the database's/);
    const clock = await checkedClock(db.sql, { hostNowMs: () => real() + 3_000 });
    const [row] = await db.sql<{ at: Date }[]>`select clock_timestamp() as at`;
    expect(Math.abs(clock().getTime() - row!.at.getTime())).toBeLessThan(1_000);
    const error = new ClockSkewError(3 * YEAR_MS, 5_000);
    expect(classifyError(error).exitCode).toBe(ExitCode.clockSkew);
  });

  it('runJob with the default clock checks the host clock before opening the run', async () => {
    const client = createPredictionClient({ baseUrl: 'http://127.0.0.1:9/prediction/v1', allowKeyless: true });
    const real = Date.now.bind(Date);
    const skew = vi.spyOn(Date, 'now').mockImplementation(() => real() + 3 * YEAR_MS);
    let worked = false;
    try {
      const run = runJob(db.sql, client, 'sync', { providers: [], categories: [], clockToleranceMs: 5_000 }, async () => {
        worked = true;
      });
      await expect(run).rejects.toThrow(ClockSkewError);
    } finally {
      skew.mockRestore();
      await client.close();
    }
    expect(worked).toBe(false);
    expect(await db.sql`select 1 from prediction.ingest_runs`).toHaveLength(0);
  });

  it('rows a clock 3 years ahead stamped no longer hide later observations: the next run moves them back', async () => {
    // As a sync on a skewed host wrote before runs took the database's clock.
    const client = createPredictionClient({ baseUrl: sim.url, apiKey: API_KEY, rateLimit: { requests: 1_000_000, windowMs: 60_000 } });
    try {
      await runSyncCycle(db.sql, client, {
        providers: KNOWN_PROVIDERS,
        categories: CONCRETE_CATEGORIES,
        maxOrderBooks: 0,
        now: () => new Date(Date.now() + 3 * YEAR_MS),
      });
    } finally {
      await client.close();
    }
    const [ahead] = await db.sql<{ n: number }[]>`select count(*)::int as n from prediction.markets where last_seen_at > now()`;
    expect(ahead!.n).toBeGreaterThan(0);
    sim.world.step(3_600);
    const [startRow] = await db.sql<{ at: Date }[]>`select now() as at`;
    const secondStart = startRow!.at;
    const result = await runCli(['sync', '--max-orderbooks', '0'], env(), 120_000);
    expect(result.code).toBe(0);
    for (const [table, column] of [
      ['markets', 'last_seen_at'],
      ['events', 'last_seen_at'],
      ['pricing_snapshots', 'observed_at'],
      ['pricing_snapshots', 'last_observed_at'],
      ['market_state_history', 'valid_from'],
      ['ingest_runs', 'started_at'],
    ] as const) {
      const [row] = await db.sql<
        { n: number }[]
      >`select count(*)::int as n from ${db.sql('prediction.' + table)} where ${db.sql(column)} > now()`;
      expect(row!.n, `${table}.${column}`).toBe(0);
    }
    // The later sync's observations were taken: markets seen again, prices that moved recorded.
    const [seen] = await db.sql<{ n: number }[]>`select count(*)::int as n from prediction.markets where last_seen_at >= ${secondStart}`;
    expect(seen!.n).toBeGreaterThan(0);
    const [moved] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from prediction.pricing_snapshots where observed_at >= ${secondStart} and observed_at <= now()`;
    expect(moved!.n).toBeGreaterThan(0);
    expect(result.stderr).toMatch(/moved \d+ rows stamped in the future/);
  }, 300_000);

  it('retention never drops the month of the newest stored observation, whatever clock it is given', async () => {
    const now = new Date();
    await ensureMonthPartitions(db.sql, now);
    await db.sql`
      insert into prediction.pricing_snapshots (market_id, observed_at, last_observed_at, buy_yes_micro_usd)
      values ('NOW-1', ${now}, ${now}, 500000)`;
    const skewed = new Date(now.getTime() + 3 * YEAR_MS);
    const result = await maintainPartitions(db.sql, { now: skewed, retentionMonths: 12 });
    expect(result.dropped.map((d) => d.partitionName)).not.toContain(
      `pricing_snapshots_${now.getUTCFullYear()}_${String(now.getUTCMonth() + 1).padStart(2, '0')}`,
    );
    expect(await priceRowsThisMonth()).toBe(1);
    expect(result.horizon!.getTime()).toBe(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  });
});
