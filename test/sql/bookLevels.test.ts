import { describe, expect, it } from 'vitest';

import { writeEvents } from '../../src/store/writeEvents.js';
import { writeOrderBooks } from '../../src/store/writeOrderBooks.js';
import { book, event, market, ok } from '../helpers/domainFixtures.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

// The stored form of a book (fixed-point integer arrays, or exact numerics when a value does not
// fit) must give back through prediction.orderbook_levels exactly the decimals that went in.

const db = await useTestDatabase();
const at = new Date(Date.UTC(2026, 2, 3, 12));

async function writeBook(marketId: string, yes: [string, string][], no: [string, string][]) {
  await writeEvents(db.sql, { runId: null, endpoint: '/events', events: [ok(event(`E-${marketId}`, [market(marketId)]))], observedAt: at });
  await writeOrderBooks(db.sql, {
    runId: null,
    endpoint: '/orderbook/{marketId}',
    fetches: [{ books: [ok(book(marketId, yes, no))], observedAt: at }],
  });
  const levels = await db.sql<{ side: string; price_cents: string; size: string }[]>`
    select side, price_cents::text, size::text from prediction.orderbook_levels where market_id = ${marketId}
    order by side desc, price_cents desc`;
  const [stored] = await db.sql<{ price_scale: number | null; size_scale: number | null; exact: boolean }[]>`
    select price_scale, size_scale, exact_price_cents is not null as exact from prediction.orderbook_snapshots where market_id = ${marketId}`;
  return { levels: levels.map((l) => [l.side, l.price_cents, l.size]), stored };
}

describe('order-book levels in their stored form', () => {
  it('keeps cents with decimals and fractional sizes exactly, as integers with the smallest scale', async () => {
    const yes: [string, string][] = [
      ['99.9', '659518.58'],
      ['45', '1'],
      ['0.1', '0.01'],
    ];
    // 21474836.47 at scale 2 is 2^31 - 1, the largest unit an integer holds.
    const no: [string, string][] = [['54.95', '21474836.47']];
    const { levels, stored } = await writeBook('fixed', yes, no);
    expect(levels).toEqual([...yes.map(([p, s]) => ['yes', p, s]), ...no.map(([p, s]) => ['no', p, s])]);
    expect(stored).toEqual({ price_scale: 2, size_scale: 2, exact: false });
  });

  it('keeps a book whose values do not fit 32-bit units as exact numerics', async () => {
    // One unit past 2^31 - 1 at scale 2.
    const yes: [string, string][] = [['50', '21474836.48']];
    const no: [string, string][] = [['49.12', '3']];
    const { levels, stored } = await writeBook('exact', yes, no);
    expect(levels).toEqual([
      ['yes', '50', '21474836.48'],
      ['no', '49.12', '3'],
    ]);
    expect(stored).toEqual({ price_scale: null, size_scale: null, exact: true });
  });

  it('stores an empty side and an empty book without levels', async () => {
    expect((await writeBook('one-sided', [['12', '3']], [])).levels).toEqual([['yes', '12', '3']]);
    const empty = await writeBook('empty', [], []);
    expect(empty.levels).toEqual([]);
    expect(empty.stored).toEqual({ price_scale: 0, size_scale: 0, exact: false });
  });
});
