import { beforeEach, describe, expect, it } from 'vitest';

import type { WriteFence } from '../../src/sql/coordination/acquireWriteLock.js';
import { OrderBookWriter } from '../../src/store/OrderBookWriter.js';
import type { WriteCounts } from '../../src/store/writeCounts.js';
import type { OrderBooksWrite } from '../../src/store/writeOrderBooks.js';
import { book, ok } from '../helpers/domainFixtures.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
const t = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min));

/** One fetch of market M1's book, with one yes level of `size`. */
const batchOf = (size: string, at: Date, fence?: WriteFence): OrderBooksWrite => ({
  runId: null,
  endpoint: '/orderbook/{marketId}',
  fetches: [{ books: [ok(book('M1', [['50', size]], []))], observedAt: at }],
  fence,
});

async function storedSizes(): Promise<[string, string][]> {
  const rows = await db.sql<{ observed_at: Date; last_observed_at: Date; size: string }[]>`
    select s.observed_at, s.last_observed_at, l.size::text as size
    from prediction.orderbook_snapshots s join prediction.orderbook_levels l using (snapshot_id)
    order by s.observed_at`;
  return rows.map((r) => [r.size, `${r.observed_at.toISOString()}..${r.last_observed_at.toISOString()}`]);
}

describe('OrderBookWriter', () => {
  beforeEach(async () => {
    await db.sql`truncate prediction.orderbook_snapshots`;
  });

  it('writes the batches in the order given, each compared with what the ones before committed', async () => {
    const written: WriteCounts[] = [];
    const writer = new OrderBookWriter(db.sql, (counts) => written.push(counts));
    // Given back to back: each is prepared while the one before is still being written.
    await writer.write(batchOf('1', t(0)));
    await writer.write(batchOf('1', t(1)));
    await writer.write(batchOf('2', t(2)));
    await writer.write(batchOf('1', t(3)));
    await writer.drain();
    expect(written.map((c) => c.rowsByTable.orderbook_snapshots)).toEqual([1, 0, 1, 1]);
    expect(await storedSizes()).toEqual([
      ['1', `${t(0).toISOString()}..${t(1).toISOString()}`],
      ['2', `${t(2).toISOString()}..${t(2).toISOString()}`],
      ['1', `${t(3).toISOString()}..${t(3).toISOString()}`],
    ]);
  });

  it('reports a failed write at the next write and at drain, and writes nothing given after it', async () => {
    const refused = new Error('the lease is gone');
    const written: WriteCounts[] = [];
    const writer = new OrderBookWriter(db.sql, (counts) => written.push(counts));
    await writer.write(batchOf('1', t(0)));
    await writer.write(
      batchOf('2', t(1), async () => {
        throw refused;
      }),
    );
    await expect(writer.write(batchOf('3', t(2)))).rejects.toBe(refused);
    await expect(writer.write(batchOf('4', t(3)))).rejects.toBe(refused);
    await expect(writer.drain()).rejects.toBe(refused);
    expect(() => writer.throwIfFailed()).toThrow(refused);
    expect(written).toHaveLength(1);
    expect(await storedSizes()).toEqual([['1', `${t(0).toISOString()}..${t(0).toISOString()}`]]);
  });

  it('treats an error of the callback as a failed write, not as an unhandled rejection', async () => {
    const broken = new Error('the totals could not be added');
    const writer = new OrderBookWriter(db.sql, () => {
      throw broken;
    });
    await writer.write(batchOf('1', t(0)));
    await expect(writer.drain()).rejects.toBe(broken);
  });

  it('drains at once when nothing was given, and a batch of no fetch writes nothing', async () => {
    const written: WriteCounts[] = [];
    const writer = new OrderBookWriter(db.sql, (counts) => written.push(counts));
    await writer.drain();
    await writer.write({ runId: null, endpoint: '/orderbook/{marketId}', fetches: [] });
    await writer.drain();
    expect(written).toEqual([]);
    expect(await storedSizes()).toEqual([]);
  });
});
