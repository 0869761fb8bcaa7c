/**
 * `npm run test:citus`: the partition upkeep on a cluster. A month created ahead is distributed as
 * it is attached, co-located with its parent; retention's drop of a month drops its shards on the
 * workers; packing a closed month rebuilds the shards' indexes (REINDEX CONCURRENTLY and the
 * fillfactor reach every shard through the coordinator).
 */
import { describe, expect, it } from 'vitest';

import { connectPacker } from '../../src/partitions/connectPacker.js';
import { maintainPartitions } from '../../src/partitions/maintainPartitions.js';
import { packClosedPartitions } from '../../src/partitions/packClosedPartitions.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { writeOrderBooks } from '../../src/store/writeOrderBooks.js';
import { book, event, market, ok } from '../helpers/domainFixtures.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
const utc = (year: number, month: number, day = 1) => new Date(Date.UTC(year, month - 1, day));

/** The months of `table` Citus knows, as placed: the co-location group and the shards on workers. */
async function placedMonths(table: string) {
  return db.sql<{ name: string; colocated: boolean; shards: number; workers: number }[]>`
    select p.logicalrelid::text as name,
           p.colocationid = (select colocationid from pg_dist_partition where logicalrelid = 'prediction.markets'::regclass) as colocated,
           (select count(*)::int from citus_shards s where s.table_name = p.logicalrelid) as shards,
           (select count(distinct s.nodeport)::int from citus_shards s where s.table_name = p.logicalrelid) as workers
    from pg_dist_partition p
    where p.logicalrelid::text like ${`prediction_partitions.${table}_%`}
    order by 1`;
}

/** The storage options of the primary key of every shard of a partition, read on the workers. */
async function shardKeyOptions(partition: string): Promise<string[]> {
  const rows = await db.sql<{ result: string }[]>`
    select result from run_command_on_shards(${partition},
      $cmd$select coalesce(array_to_string(c.reloptions, ','), '') from pg_index i join pg_class c on c.oid = i.indexrelid
           where i.indrelid = '%s'::regclass and i.indisprimary$cmd$)`;
  return [...new Set(rows.map((r) => r.result))];
}

describe('partition upkeep on Citus', () => {
  it('creates months ahead as distributed partitions, co-located with their markets', async () => {
    const result = await maintainPartitions(db.sql, { now: utc(2030, 5, 10), retentionMonths: null });
    expect(result.created).toBeGreaterThan(0);
    const months = await placedMonths('pricing_snapshots');
    expect(months.map((m) => m.name)).toEqual(
      expect.arrayContaining(['prediction_partitions.pricing_snapshots_2030_05', 'prediction_partitions.pricing_snapshots_2030_07']),
    );
    for (const month of months) expect(month).toMatchObject({ colocated: true, workers: 2 });
  });

  it('drops the shards of the months retention expires', async () => {
    await maintainPartitions(db.sql, { now: utc(2030, 1, 10), retentionMonths: null });
    const market1 = market('M1', {
      pricing: { buyYesMicroUsd: '600000', buyNoMicroUsd: '420000', sellYesMicroUsd: '580000', sellNoMicroUsd: '400000', volume: '1' },
    });
    await writeEvents(db.sql, { runId: null, endpoint: '/events', events: [ok(event('E1', [market1]))], observedAt: utc(2030, 1, 15) });
    // A later observation: retention never drops the month of the newest one.
    const later = market('M1', {
      pricing: { buyYesMicroUsd: '610000', buyNoMicroUsd: '410000', sellYesMicroUsd: '590000', sellNoMicroUsd: '390000', volume: '2' },
    });
    await writeEvents(db.sql, { runId: null, endpoint: '/events', events: [ok(event('E1', [later]))], observedAt: utc(2030, 5, 1) });
    const [before] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from citus_shards where table_name::text = 'prediction_partitions.pricing_snapshots_2030_01'`;
    expect(before!.n).toBeGreaterThan(0);
    const result = await maintainPartitions(db.sql, { now: utc(2030, 5, 10), retentionMonths: 2 });
    expect(result.dropped.map((d) => d.partitionName)).toContain('pricing_snapshots_2030_01');
    const [after] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from citus_shards where table_name::text = 'prediction_partitions.pricing_snapshots_2030_01'`;
    expect(after!.n).toBe(0);
    const [dropped] = await db.sql<{ rows: string }[]>`
      select row_count::text as rows from prediction.dropped_partitions where partition_name = 'pricing_snapshots_2030_01'`;
    expect(dropped!.rows).toBe('1');
  });

  it('packs a closed month on every shard', async () => {
    await maintainPartitions(db.sql, { now: utc(2031, 1, 10), retentionMonths: null });
    const at = utc(2031, 1, 20);
    const markets = Array.from({ length: 40 }, (_, i) => market(`P${i}`));
    await writeEvents(db.sql, { runId: null, endpoint: '/events', events: [ok(event('E2', markets))], observedAt: at });
    await writeOrderBooks(db.sql, {
      runId: null,
      endpoint: '/orderbook/{marketId}',
      fetches: [{ books: markets.map((m) => ok(book(m.marketId, [['60', '5']], [['39', '7']]))), observedAt: at }],
    });
    const partition = 'prediction_partitions.orderbook_snapshots_2031_01';
    expect(await shardKeyOptions(partition)).toEqual(['']);
    const packer = connectPacker(db.url);
    try {
      // Every closed month of the four time-partitioned tables, the one written here among them.
      const packing = await packClosedPartitions(packer.sql, { now: utc(2031, 2, 5), limit: 100 });
      expect(packing.postponed).toBeNull();
      expect(packing.packed.map((p) => p.partition)).toContain('prediction_partitions.orderbook_snapshots_2031_01');
    } finally {
      await packer.close();
    }
    expect(await shardKeyOptions(partition)).toEqual(['fillfactor=100']);
    const [read] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from prediction.orderbook_snapshots where observed_at = ${at} and market_id like 'P%'`;
    expect(read!.n).toBe(40);
  });
});
