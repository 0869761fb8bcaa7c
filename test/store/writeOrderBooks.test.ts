import { beforeEach, describe, expect, it } from 'vitest';

import type { OrderBook } from '../../src/domain/types.js';
import { hashOrderBooks, recordOrderBooks } from '../../src/sql/writes/recordOrderBooks.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { writeOrderBooks } from '../../src/store/writeOrderBooks.js';
import { bad, book, event, market, ok } from '../helpers/domainFixtures.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

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
    await db.sql`truncate prediction.orderbook_snapshots, prediction.rejected_records, prediction.book_fetches`;
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

  it('tells a null book from an empty one: the upstream sending no book, then a book with no levels, is a change', async () => {
    const write = (b: OrderBook, at: Date) =>
      writeOrderBooks(db.sql, { endpoint: '/orderbook/{marketId}', runId: null, fetches: [{ books: [ok(b)], observedAt: at }] });
    await write(book('M1', [], [], true), t(0));
    await write(book('M1', [], [], false), t(1));
    await write(book('M1', [], [], true), t(2));
    expect((await snapshots('M1')).map((s) => s.is_null)).toEqual([true, false, true]);
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

  it('compares each book of a large batch with its own market: new, identical, changed, and observed too late', async () => {
    const id = (i: number) => `M${String(i).padStart(4, '0')}`;
    const levels = (i: number, version: string): [string, string][] => [[String(10 + (i % 80)), `${version}.${i}`]];
    const record = (books: OrderBook[], at: Date) =>
      db.sql.begin(async (tx) => recordOrderBooks(tx, await hashOrderBooks(books.map((b) => ({ book: b, observedAt: at })))));
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
    await record(
      range(0, 600).map((i) => book(id(i), levels(i, '1'), [])),
      t(0),
    );
    // Markets 500-599 change at minute 5: a book observed before that must not count as news.
    await record(
      range(500, 600).map((i) => book(id(i), levels(i, '5'), [])),
      t(5),
    );

    const counts = await record(
      [
        ...range(0, 200).map((i) => book(id(i), levels(i, '1'), [])), // identical: confirmed
        ...range(200, 500).map((i) => book(id(i), levels(i, '2'), [['40', '1']])), // changed: new snapshot
        ...range(500, 550).map((i) => book(id(i), levels(i, '2'), [])), // changed, but older than the latest
        ...range(550, 600).map((i) => book(id(i), levels(i, '5'), [])), // identical, older than the latest
        ...range(600, 1200).map((i) => book(id(i), levels(i, '1'), [])), // never seen: new
      ],
      t(1),
    );
    expect(counts).toMatchObject({ inserted: 900, confirmed: 200, levels: 300 * 2 + 600 });
    expect(counts.changed).toHaveLength(900);

    const rows = await db.sql<{ market_id: string; observed_at: Date; last_observed_at: Date; sizes: string[] }[]>`
      select market_id, observed_at, last_observed_at, (select array_agg(l.size::text order by l.side desc) from prediction.orderbook_levels l
                                                        where l.snapshot_id = s.snapshot_id) as sizes
      from prediction.orderbook_snapshots s order by market_id, observed_at`;
    const history = (i: number) =>
      rows.filter((r) => r.market_id === id(i)).map((r) => [r.observed_at.getUTCMinutes(), r.last_observed_at.getUTCMinutes(), r.sizes]);
    expect(rows).toHaveLength(600 + 100 + 900);
    expect(history(7)).toEqual([[0, 1, ['1.7']]]);
    expect(history(321)).toEqual([
      [0, 0, ['1.321']],
      [1, 1, ['2.321', '1']],
    ]);
    expect(history(512)).toEqual([
      [0, 0, ['1.512']],
      [5, 5, ['5.512']],
    ]);
    expect(history(577)).toEqual([
      [0, 0, ['1.577']],
      [5, 5, ['5.577']],
    ]);
    expect(history(1101)).toEqual([[1, 1, ['1.1101']]]);

    // Each fetch counted once in its market's evidence, as its book was stored: a late answer
    // (500-599 at minute 1, after their fetch at minute 5) not at all.
    const evidence = await db.sql<{ lo: string; hi: string; n: number; e: string }[]>`
      select min(market_id) as lo, max(market_id) as hi, count(*)::int as n,
             concat_ws(' ', to_char(last_fetched_at, 'MI'), fetches, changed_fetches, unchanged_fetches, changed_interval_sec, unchanged_interval_sec) as e
      from prediction.book_fetches group by 4 order by 1`;
    expect(evidence).toEqual([
      { lo: id(0), hi: id(199), n: 200, e: '01 2 0 1 0 60' },
      { lo: id(200), hi: id(499), n: 300, e: '01 2 1 0 60 0' },
      { lo: id(500), hi: id(599), n: 100, e: '05 2 1 0 300 0' },
      { lo: id(600), hi: id(1199), n: 600, e: '01 1 0 0 0 0' },
    ]);
  });

  it("counts each fetch's outcome exactly once: first, unchanged, changed, late, replayed, rolled back", async () => {
    const write = (books: OrderBook[], at: Date) =>
      writeOrderBooks(db.sql, { runId: null, endpoint: '/orderbook/{marketId}', fetches: [{ books: books.map(ok), observedAt: at }] });
    const evidence = async () =>
      (
        await db.sql<{ market_id: string; last_fetched_at: Date }[]>`
          select market_id, last_fetched_at, fetches, changed_fetches, unchanged_fetches, changed_interval_sec, changed_interval_sq_sec,
                 unchanged_interval_sec
          from prediction.book_fetches order by market_id`
      ).map(({ last_fetched_at, ...rest }) => ({ ...rest, at: last_fetched_at.toISOString() }));
    const a = book('M1', [['60', '10']], []);
    const b = book('M1', [['60', '11']], []);
    await write([a], t(0)); // first fetch: nothing to compare with
    await write([a], t(1)); // unchanged, a minute after
    await write([b, book('M2', [], [], true)], t(4)); // M1 changed, three minutes after; M2's first
    const counted = [
      {
        market_id: 'M1',
        at: t(4).toISOString(),
        fetches: 3,
        changed_fetches: 1,
        unchanged_fetches: 1,
        changed_interval_sec: 180,
        changed_interval_sq_sec: 180 * 180,
        unchanged_interval_sec: 60,
      },
      {
        market_id: 'M2',
        at: t(4).toISOString(),
        fetches: 1,
        changed_fetches: 0,
        unchanged_fetches: 0,
        changed_interval_sec: 0,
        changed_interval_sq_sec: 0,
        unchanged_interval_sec: 0,
      },
    ];
    expect(await evidence()).toEqual(counted);
    // The same batch again, as a rerun after a crash would send it; then a late answer (minute 2,
    // after the fetch of minute 4), changed or not: none is counted.
    await write([b, book('M2', [], [], true)], t(4));
    await write([book('M1', [['60', '12']], [])], t(2));
    await write([a], t(2));
    expect(await evidence()).toEqual(counted);
    // A batch rolled back (its quarantine's run does not exist) counts nothing.
    await expect(
      writeOrderBooks(db.sql, {
        runId: 2_000_000_000,
        endpoint: '/orderbook/{marketId}',
        fetches: [{ books: [ok(book('M1', [['60', '13']], [])), ok(book('M3', [], [], true)), bad('M4', 'bad', {})], observedAt: t(5) }],
      }),
    ).rejects.toThrow();
    expect(await evidence()).toEqual(counted);
    // The next fetch counts from the last one that was.
    await write([book('M1', [['60', '13']], [])], t(6));
    expect((await evidence())[0]).toMatchObject({
      fetches: 4,
      changed_fetches: 2,
      changed_interval_sec: 180 + 120,
      changed_interval_sq_sec: 180 * 180 + 120 * 120,
    });
  });

  it('counts a fetch a change signal brought forward apart from the blind ones, changed or not, with its lag', async () => {
    // Each signalled market with how many seconds before the answer its signal was told.
    const write = (books: OrderBook[], at: Date, signalled: Record<string, number>) =>
      writeOrderBooks(db.sql, {
        runId: null,
        endpoint: '/orderbook/{marketId}',
        fetches: [
          {
            books: books.map(ok),
            observedAt: at,
            signalled: new Map(Object.entries(signalled).map(([id, lagSec]) => [id, at.getTime() - lagSec * 1000])),
          },
        ],
      });
    const a = book('M1', [['60', '10']], []);
    const b = book('M1', [['60', '11']], []);
    await write([a, book('M2', [], [], true)], t(0), { M1: 9 }); // a first fetch counts as nothing more, signalled or not
    await write([b, book('M2', [], [], true)], t(1), { M1: 5 }); // M1 signalled and changed, 5 s after its signal; M2 blind and unchanged
    await write([b], t(3), { M1: -2 }); // signalled, unchanged; told by a clock ahead of ours: no lag
    await write([a], t(4), {}); // blind, changed
    await write([a], t(4), { M1: 7 }); // a rerun of the batch before, now said to be signalled: not counted again
    const rows = await db.sql`
      select market_id, fetches, changed_fetches, unchanged_fetches, changed_interval_sec, unchanged_interval_sec,
             signalled_fetches, signalled_changed_fetches, signalled_interval_sec, signalled_lag_sec
      from prediction.book_fetches order by market_id`;
    expect(rows).toEqual([
      {
        market_id: 'M1',
        fetches: 4,
        changed_fetches: 1,
        unchanged_fetches: 0,
        changed_interval_sec: 60,
        unchanged_interval_sec: 0,
        signalled_fetches: 2,
        signalled_changed_fetches: 1,
        signalled_interval_sec: 60 + 120,
        signalled_lag_sec: 5,
      },
      {
        market_id: 'M2',
        fetches: 2,
        changed_fetches: 0,
        unchanged_fetches: 1,
        changed_interval_sec: 0,
        unchanged_interval_sec: 60,
        signalled_fetches: 0,
        signalled_changed_fetches: 0,
        signalled_interval_sec: 0,
        signalled_lag_sec: 0,
      },
    ]);
  });

  it("rolls the whole batch back when one of its statements fails, and throws that statement's error", async () => {
    // A run id that does not exist: the quarantine's foreign key fails, after which the books'
    // comparison fails only because the transaction was aborted.
    const write = writeOrderBooks(db.sql, {
      runId: 2_000_000_000,
      endpoint: '/orderbook/{marketId}',
      fetches: [{ books: [ok(book('M1', [['60', '10']], [])), bad('M2', 'yes[0]: expected exactly 2 numbers', {})], observedAt: t(0) }],
    });
    await expect(write).rejects.toMatchObject({ code: '23503' });
    const [written] = await db.sql<{ n: number }[]>`select (select count(*) from prediction.orderbook_snapshots)::int
                                      + (select count(*) from prediction.rejected_records)::int as n`;
    expect(written!.n).toBe(0);
  });
});
