import { beforeEach, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/store/writeEvents.js';
import { writeOrderBooks } from '../../src/store/writeOrderBooks.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { bad, book, event, market, ok } from '../helpers/domainFixtures.js';

const db = await useTestDatabase();
const t = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min));

async function snapshots(marketId: string) {
  return db.sql`
    select s.snapshot_id, s.observed_at, s.last_observed_at, s.yes_levels, s.no_levels, s.is_null,
           coalesce((select json_agg(json_build_array(l.side, l.price_cents, l.size) order by l.side desc, l.price_cents desc)
                     from prediction.orderbook_levels l where l.snapshot_id = s.snapshot_id), '[]') as levels
    from prediction.orderbook_snapshots s where s.market_id = ${marketId} order by s.observed_at`;
}

describe('writeOrderBooks', () => {
  beforeEach(async () => {
    await db.sql`truncate prediction.orderbook_snapshots, prediction.rejected_records`;
  });

  it('stores a book with its levels, adds nothing when it is unchanged, and a new snapshot when it changes', async () => {
    await writeEvents(db.sql, { runId: null, endpoint: '/events', events: [ok(event('E1', [market('M1')]))], observedAt: t(0) });
    const first = book(
      'M1',
      [
        ['65', '100'],
        ['64', '2.5'],
      ],
      [['35', '10']],
    );
    expect(
      (
        await writeOrderBooks(db.sql, {
          runId: null,
          endpoint: '/orderbook/{marketId}',
          fetches: [{ books: [ok(first)], observedAt: t(0) }],
        })
      ).rowsByTable,
    ).toMatchObject({ orderbook_snapshots: 1, orderbook_levels: 3 });
    expect(
      (
        await writeOrderBooks(db.sql, {
          runId: null,
          endpoint: '/orderbook/{marketId}',
          fetches: [{ books: [ok(first)], observedAt: t(1) }],
        })
      ).rowsByTable,
    ).toMatchObject({ orderbook_snapshots: 0, orderbook_levels: 0 });
    const second = book(
      'M1',
      [
        ['65', '90'],
        ['64', '2.5'],
      ],
      [['35', '10']],
    );
    await writeOrderBooks(db.sql, { runId: null, endpoint: '/orderbook/{marketId}', fetches: [{ books: [ok(second)], observedAt: t(2) }] });
    // Replaying the same observation is a no-op.
    await writeOrderBooks(db.sql, { runId: null, endpoint: '/orderbook/{marketId}', fetches: [{ books: [ok(second)], observedAt: t(2) }] });

    const rows = await snapshots('M1');
    expect(rows.map((r) => [r.observed_at.toISOString(), r.last_observed_at.toISOString(), r.yes_levels, r.no_levels, r.levels])).toEqual([
      [
        t(0).toISOString(),
        t(1).toISOString(),
        2,
        1,
        [
          ['yes', 65, 100],
          ['yes', 64, 2.5],
          ['no', 35, 10],
        ],
      ],
      [
        t(2).toISOString(),
        t(2).toISOString(),
        2,
        1,
        [
          ['yes', 65, 90],
          ['yes', 64, 2.5],
          ['no', 35, 10],
        ],
      ],
    ]);
  });

  it('records a null book as an observation, and quarantines an invalid one', async () => {
    const written = await writeOrderBooks(db.sql, {
      endpoint: '/orderbook/{marketId}',
      runId: null,
      fetches: [
        {
          books: [ok(book('M1', [], [], true)), bad('M2', 'yes[0]: expected exactly 2 numbers', { yes: [[1]], no: [] })],
          observedAt: t(0),
        },
      ],
    });
    expect(written).toMatchObject({ recordsSeen: 2, recordsWritten: 1, recordsRejected: 1 });
    const [snap] = await snapshots('M1');
    expect(snap).toMatchObject({ is_null: true, yes_levels: 0, no_levels: 0, levels: [] });
    const [rejected] = await db.sql`select endpoint, entity_id from prediction.rejected_records`;
    expect(rejected).toEqual({ endpoint: '/orderbook/{marketId}', entity_id: 'M2' });
  });

  it('stamps each book with the time of its own fetch when several fetches are written together', async () => {
    await writeOrderBooks(db.sql, {
      runId: null,
      endpoint: '/orderbook/{marketId}',
      fetches: [{ books: [ok(book('M1', [['60', '10']], []))], observedAt: t(0) }],
    });
    const written = await writeOrderBooks(db.sql, {
      endpoint: '/orderbook/{marketId}',
      runId: null,
      fetches: [
        { books: [ok(book('M1', [['60', '10']], [])), ok(book('M2', [['40', '5']], []))], observedAt: t(1) },
        { books: [ok(book('M3', [['55', '1']], []))], observedAt: t(2) },
      ],
    });
    expect(written.rowsByTable).toMatchObject({ orderbook_snapshots: 2, orderbook_levels: 2 });
    const rows = await db.sql`select market_id, observed_at, last_observed_at from prediction.orderbook_snapshots order by market_id`;
    expect(rows.map((r) => [r.market_id, r.observed_at.toISOString(), r.last_observed_at.toISOString()])).toEqual([
      ['M1', t(0).toISOString(), t(1).toISOString()],
      ['M2', t(1).toISOString(), t(1).toISOString()],
      ['M3', t(2).toISOString(), t(2).toISOString()],
    ]);
  });
});
