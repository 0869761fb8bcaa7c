import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { connectPacker } from '../../src/partitions/connectPacker.js';
import { CLOSED_AFTER_MS, packClosedPartitions } from '../../src/partitions/packClosedPartitions.js';
import { selectTableSizes } from '../../src/sql/status/selectTableSizes.js';
import { PACKED_INDEX_OPTION } from '../../src/sql/upkeep/selectUnpackedPartitions.js';
import { writeOrderBooks } from '../../src/store/writeOrderBooks.js';
import { book, ok } from '../helpers/domainFixtures.js';
import { startHarness, syncOnce } from '../helpers/syncHarness.js';
import { createTestDatabase, useTestDatabase } from '../helpers/testDatabase.js';
import { utc } from '../helpers/utc.js';

const db = await useTestDatabase();
const packer = connectPacker(db.url);
afterAll(() => packer.close());

const MARKETS = 20;
const JANUARY = 'prediction_partitions.orderbook_snapshots_2025_01';
const JANUARY_PK = `${JANUARY}_pkey`;

/** Every market's book changes at each of `times`: a month of snapshots written across markets, as the sweep does. */
async function writeBooks(times: Date[]): Promise<void> {
  for (const [t, observedAt] of times.entries()) {
    const books = Array.from({ length: MARKETS }, (_, m) => ok(book(`M${m}`, [[String(10 + ((t + m) % 80)), `${t}.5`]], [['40', '7']])));
    await writeOrderBooks(db.sql, { runId: null, endpoint: '/orderbook/{marketId}', fetches: [{ books, observedAt }] });
  }
}

/** A market whose book was last seen, and changed, in January. */
const writeOldBook = (observedAt: Date) =>
  writeOrderBooks(db.sql, {
    runId: null,
    endpoint: '/orderbook/{marketId}',
    fetches: [{ books: [ok(book('OLD', [['30', '1']], [['60', '2']]))], observedAt }],
  });

/** Everything the order-book history holds, as one digest. */
async function historyDigest(): Promise<string> {
  const [row] = await db.sql<{ digest: string }[]>`
    select md5(string_agg(s::text, '|' order by s.market_id, s.observed_at)) as digest from prediction.orderbook_snapshots s`;
  return row!.digest;
}

const indexBytes = async (index: string) =>
  Number((await db.sql<{ bytes: string }[]>`select pg_relation_size(${index}::regclass) as bytes`)[0]!.bytes);

const reloptions = async (index: string) =>
  (await db.sql<{ options: string[] | null }[]>`select reloptions as options from pg_class where oid = ${index}::regclass`)[0]!.options;

async function invalidIndexes(): Promise<string[]> {
  const rows = await db.sql<{ name: string }[]>`
    select c.relname as name from pg_index x join pg_class c on c.oid = x.indexrelid
    where not x.indisvalid and c.relnamespace = 'prediction_partitions'::regnamespace order by 1`;
  return rows.map((r) => r.name);
}

describe('packing the indexes of closed months', () => {
  beforeAll(async () => {
    // January and February close; March is the current month.
    await writeBooks(Array.from({ length: 300 }, (_, i) => new Date(utc(1, 2).getTime() + i * 2 * 3_600_000)));
    await writeBooks([utc(2, 3), utc(3, 2)]);
    await writeOldBook(utc(1, 5));
  });

  it('rebuilds them densely once, leaves the current month alone, and the history reads the same', async () => {
    const before = await historyDigest();
    const januaryBefore = await indexBytes(JANUARY_PK);
    const now = utc(3, 15);

    const first = await packClosedPartitions(packer.sql, { now, limit: 1 });
    expect(first.packed.map((p) => p.partition)).toEqual(['prediction_partitions.market_state_history_2025_01']);
    const rest = await packClosedPartitions(packer.sql, { now, limit: 100 });
    const result = { ...rest, packed: [...first.packed, ...rest.packed] };

    expect(result.postponed).toBeNull();
    const months = result.packed.map((p) => `${p.tableName} ${p.rangeStart.toISOString().slice(0, 7)}`);
    expect(months).toEqual(
      expect.arrayContaining(['orderbook_snapshots 2025-01', 'orderbook_snapshots 2025-02', 'pricing_snapshots 2025-01']),
    );
    expect(months.filter((m) => m.endsWith('2025-03'))).toEqual([]);
    const january = result.packed.find((p) => p.partition === JANUARY)!;
    // 6,000 keys written month-long across 20 markets leave the leaves about half full.
    expect(january.indexBytesBefore).toBe(januaryBefore);
    expect(january.indexBytesAfter).toBe(await indexBytes(JANUARY_PK));
    expect(january.indexBytesAfter).toBeLessThan(0.75 * januaryBefore);
    expect(await reloptions(JANUARY_PK)).toContain(PACKED_INDEX_OPTION);
    expect(await reloptions('prediction_partitions.orderbook_snapshots_2025_03_pkey')).toBeNull();
    const sizes = await selectTableSizes(db.sql);
    const packedFlag = (table: string) => sizes.find((t) => t.table === table)?.packed;
    expect([packedFlag('orderbook_snapshots_2025_01'), packedFlag('orderbook_snapshots_2025_03')]).toEqual([true, false]);
    // Still the partition of the parent's primary key, as a partition's index must be.
    const [attached] = await db.sql<{ parent: string }[]>`
      select inhparent::regclass::text as parent from pg_inherits where inhrelid = ${JANUARY_PK}::regclass`;
    expect(attached?.parent).toBe('prediction.orderbook_snapshots_market_id_observed_at_pk');
    expect(await historyDigest()).toBe(before);

    expect((await packClosedPartitions(packer.sql, { now, limit: 100 })).packed).toEqual([]);
    // March closes a day after it ends.
    const marchEnd = utc(4, 1).getTime();
    expect((await packClosedPartitions(packer.sql, { now: new Date(marchEnd + CLOSED_AFTER_MS - 1), limit: 100 })).packed).toEqual([]);
    const closed = await packClosedPartitions(packer.sql, { now: new Date(marchEnd + CLOSED_AFTER_MS), limit: 100 });
    expect(closed.packed.map((p) => p.rangeStart.toISOString().slice(0, 7))).toContain('2025-03');
  });

  it('a packed month is still found and confirmed through its index', async () => {
    const counts = await writeOldBook(utc(4, 3));
    expect(counts.rowsByTable.orderbook_snapshots).toBe(0);
    const rows = await db.sql<{ observed_at: Date; last_observed_at: Date }[]>`
      select observed_at, last_observed_at from prediction.orderbook_snapshots where market_id = 'OLD'`;
    expect(rows).toEqual([{ observed_at: utc(1, 5), last_observed_at: utc(4, 3) }]);
  });

  it('a rebuild stopped half-way leaves an invalid copy, which the next call drops before packing again', async () => {
    await db.sql`alter index ${db.sql.unsafe(JANUARY_PK)} reset (fillfactor)`;
    // A reader's open transaction on the partition: the rebuild waits for it.
    const reader = await db.sql.reserve();
    const stop = new AbortController();
    try {
      // Repeatable read keeps the transaction's snapshot, which the rebuild waits to see end.
      await reader`begin isolation level repeatable read`;
      await reader`select count(*) from ${reader.unsafe(JANUARY)}`;
      const packing = packClosedPartitions(packer.sql, { now: utc(3, 15), limit: 1, signal: stop.signal });
      await waitFor(async () => (await invalidIndexes()).length > 0);
      stop.abort();
      const stopped = await packing;
      expect(stopped.packed).toEqual([]);
      expect(stopped.postponed).toBe('stopped');
    } finally {
      await reader`rollback`;
      reader.release();
    }
    const leftovers = await invalidIndexes();
    expect(leftovers).toEqual(['orderbook_snapshots_2025_01_pkey_ccnew']);

    const resumed = await packClosedPartitions(packer.sql, { now: utc(3, 15), limit: 1 });
    expect(resumed.cleanedUp).toEqual([`prediction_partitions.${leftovers[0]}`]);
    expect(resumed.packed.map((p) => p.partition)).toEqual([JANUARY]);
    expect(await invalidIndexes()).toEqual([]);
    expect(await reloptions(JANUARY_PK)).toContain(PACKED_INDEX_OPTION);
  });
});

describe('packing around other sessions', () => {
  const resetJanuary = () => db.sql`alter index ${db.sql.unsafe(JANUARY_PK)} reset (fillfactor)`;

  it('waits for no transaction that has been open long: it postpones itself before it starts', async () => {
    await resetJanuary();
    const reader = await db.sql.reserve();
    try {
      await reader`begin isolation level repeatable read`;
      await reader`select count(*) from prediction.markets`;
      const [backend] = await reader<{ pid: number }[]>`select pg_backend_pid() as pid`;
      const result = await packClosedPartitions(packer.sql, { now: utc(3, 15), limit: 1, oldSnapshotMs: 0 });
      expect(result.packed).toEqual([]);
      expect(result.postponed).toMatch(new RegExp(`pid ${backend!.pid}\\) has held a snapshot`));
      expect(await invalidIndexes()).toEqual([]);
    } finally {
      await reader`rollback`;
      reader.release();
    }
  });

  it('an old copy left after the swap is dropped, and the index that replaced it counts as packed', async () => {
    await resetJanuary();
    // What a rebuild interrupted after the swap leaves: an invalid …_ccold beside the new index.
    await db.sql.unsafe(`create unique index concurrently orderbook_snapshots_2025_01_pkey_ccold on ${JANUARY} (is_null)`).catch(() => {});
    expect(await invalidIndexes()).toEqual(['orderbook_snapshots_2025_01_pkey_ccold']);
    const result = await packClosedPartitions(packer.sql, { now: utc(3, 15), limit: 0 });
    expect(result.cleanedUp).toEqual(['prediction_partitions.orderbook_snapshots_2025_01_pkey_ccold']);
    expect(await invalidIndexes()).toEqual([]);
    expect(await reloptions(JANUARY_PK)).toContain(PACKED_INDEX_OPTION);
  });
});

describe('a sync cycle given a maintenance pool', () => {
  it('packs one closed partition at its end, the oldest', async () => {
    const other = await createTestDatabase();
    const otherPacker = connectPacker(other.url);
    const { sim, newClient } = await startHarness();
    const client = newClient();
    try {
      const packedPartitions = async () => (await selectTableSizes(other.sql)).filter((t) => t.packed).map((t) => t.table);
      // The simulator's clock starts on 2026-01-01: January is the current month.
      await syncOnce(other.sql, client, sim, { packer: otherPacker.sql });
      expect(await packedPartitions()).toEqual([]);
      const february = new Date(Date.UTC(2026, 1, 3));
      const result = await syncOnce(other.sql, client, sim, { packer: otherPacker.sql, now: () => february });
      expect(result.status).toBe('succeeded');
      expect(await packedPartitions()).toEqual([`market_state_history_2026_01`]);
    } finally {
      await client.close();
      await sim.stop();
      await otherPacker.close();
      await other.close();
    }
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
