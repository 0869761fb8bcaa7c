import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Simulator } from '../../src/simulator/index.js';
import { ensureMonthPartitions } from '../../src/sql/core/ensureMonthPartitions.js';
import { runCli } from '../helpers/runCli.js';
import { cliEnv, startHarness } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
let sim: Simulator;
beforeAll(async () => {
  ({ sim } = await startHarness({ seed: 11, markets: 40 }));
});
afterAll(() => sim.stop());

const env = (extra: Record<string, string> = {}) => cliEnv(db.url, sim.url, extra);

describe('PREDICTION_RETENTION_MONTHS', () => {
  it('is off by default; set, the sync ends by dropping the months behind it and recording them', async () => {
    // A month of prices two years back.
    const old = new Date(Date.UTC(new Date().getUTCFullYear() - 2, 0, 15));
    await ensureMonthPartitions(db.sql, old);
    await db.sql`
      insert into prediction.pricing_snapshots (market_id, observed_at, last_observed_at, buy_yes_micro_usd)
      values ('OLD-1', ${old}, ${old}, 500000)`;
    const oldMonth = `pricing_snapshots_${old.getUTCFullYear()}_01`;
    const months = async () =>
      (
        await db.sql<{ name: string }[]>`
        select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'prediction.pricing_snapshots'::regclass`
      ).map((r) => r.name);

    expect((await runCli(['sync', '--max-orderbooks', '0'], env(), 120_000)).code).toBe(0);
    expect(await months()).toContain(oldMonth);
    expect(await db.sql`select 1 from prediction.dropped_partitions`).toHaveLength(0);

    expect((await runCli(['sync', '--max-orderbooks', '0'], env({ PREDICTION_RETENTION_MONTHS: '3' }), 120_000)).code).toBe(0);
    expect(await months()).not.toContain(oldMonth);
    const dropped = await db.sql`
      select table_name, row_count::int, retention_months from prediction.dropped_partitions where table_name = 'pricing_snapshots'`;
    expect(dropped).toEqual([{ table_name: 'pricing_snapshots', row_count: 1, retention_months: 3 }]);
  }, 300_000);
});
