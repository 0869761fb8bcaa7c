import { describe, expect, it } from 'vitest';

import type { OrderBook } from '../../src/domain/types.js';
import { DRIFT } from '../../src/normalize/driftTags.js';
import { normalizeOrderBook } from '../../src/normalize/orderBook.js';
import { orderBookSchema } from '../../src/wire/orderBook.js';
import { recordShape } from '../../src/wire/recordShape.js';
import { liveOrderBook, specOrderBook } from '../wire/fixtures.js';

function normalize(body: unknown): OrderBook {
  return normalizeOrderBook(orderBookSchema.parse(body), { marketId: 'KXF1-25-LN', shape: recordShape(body, 'orderBook') });
}

describe('normalizeOrderBook', () => {
  it('spec book: descending levels kept as exact decimals', () => {
    const body = specOrderBook();
    expect(normalize(body)).toEqual({
      marketId: 'KXF1-25-LN',
      isNull: false,
      yes: [
        { priceCents: '65', size: '100' },
        { priceCents: '64', size: '250.5' },
        { priceCents: '60', size: '10' },
      ],
      no: [
        { priceCents: '35', size: '80' },
        { priceCents: '30', size: '1' },
      ],
      drift: [],
      shape: recordShape(body, 'orderBook'),
    });
  });

  it('null body: isNull, empty sides', () => {
    expect(normalize(null)).toEqual({
      marketId: 'KXF1-25-LN',
      isNull: true,
      yes: [],
      no: [],
      drift: [],
      shape: recordShape(null, 'orderBook'),
    });
  });

  it('empty sides are a valid, non-null book', () => {
    expect(normalize({ yes: [], no: [] })).toMatchObject({ isNull: false, yes: [], no: [], drift: [] });
  });

  it('fractional cents and sizes, bounds 0 and 100 inclusive', () => {
    const book = normalize({
      yes: [
        [100, 0],
        [99.9, 0.5],
        [0, 1e-7],
      ],
      no: [],
    });
    expect(book.yes).toEqual([
      { priceCents: '100', size: '0' },
      { priceCents: '99.9', size: '0.5' },
      { priceCents: '0', size: '0.0000001' },
    ]);
  });

  it('ascending levels: reversed to best first, tagged orderbook_ascending', () => {
    const book = normalize({
      yes: [
        [60, 10],
        [64, 250.5],
        [65, 100],
      ],
      no: [[35, 80]],
    });
    expect(book.yes.map((l) => l.priceCents)).toEqual(['65', '64', '60']);
    expect(book.yes[0]).toEqual({ priceCents: '65', size: '100' });
    expect(book.no).toEqual([{ priceCents: '35', size: '80' }]);
    expect(book.drift).toEqual([DRIFT.orderBookAscending]);
  });

  it('a single level is never taken for ascending', () => {
    expect(normalize({ yes: [[50, 1]], no: [[40, 2]] }).drift).toEqual([]);
  });

  it('yes_dollars/no_dollars: tagged orderbook_dollars, the dollar prices used', () => {
    const body = {
      yes: [
        [30, 5],
        [65, 100],
      ],
      no: [[35, 80]],
      yes_dollars: [
        ['0.3010', 5],
        ['0.6500', 100],
      ],
      no_dollars: [['0.3500', 80]],
    };
    const book = normalize(body);
    expect(book.yes).toEqual([
      { priceCents: '65', size: '100' },
      { priceCents: '30.1', size: '5' },
    ]);
    expect(book.no).toEqual([{ priceCents: '35', size: '80' }]);
    expect(book.drift).toEqual([DRIFT.orderBookDollars, DRIFT.orderBookAscending]);
  });

  it("today's book: rounded, repeated cent prices are distinct in dollars", () => {
    const book = normalize(liveOrderBook());
    expect(book.yes).toEqual([
      { priceCents: '99.9', size: '659518.58' },
      { priceCents: '99.5', size: '5' },
      { priceCents: '99.4', size: '10' },
    ]);
    expect(book.no).toEqual([]);
    // Read from the dollars, the levels do not repeat: nothing merged.
    expect(book.drift).toEqual([DRIFT.orderBookDollars, DRIFT.orderBookAscending]);
  });

  it('cents only: repeated prices merged by summing sizes exactly, best first', () => {
    const book = normalize({
      yes: [
        [0, 1],
        [0, 2],
        [1, 0.1],
        [1, 0.2],
        [100, 659518.58],
        [100, 1.42],
      ],
      no: [],
    });
    expect(book.yes).toEqual([
      { priceCents: '100', size: '659520' },
      { priceCents: '1', size: '0.3' },
      { priceCents: '0', size: '3' },
    ]);
    expect([...book.drift].sort()).toEqual([DRIFT.orderBookAscending, DRIFT.orderBookMergedLevels].sort());
  });

  it('repeated dollar prices are merged too', () => {
    const book = normalize({
      yes: [],
      no: [],
      no_dollars: [
        ['0.9950', 1],
        ['0.995', 2],
      ],
    });
    expect(book.no).toEqual([{ priceCents: '99.5', size: '3' }]);
    expect(book.drift).toContain(DRIFT.orderBookMergedLevels);
  });

  it('dollar and cent sides of different lengths: the dollars are used, tagged orderbook_dollars_mismatch', () => {
    const book = normalize({
      yes: [[50, 1]],
      no: [],
      yes_dollars: [
        ['0.5000', 1],
        ['0.4000', 2],
      ],
    });
    expect(book.yes).toEqual([
      { priceCents: '50', size: '1' },
      { priceCents: '40', size: '2' },
    ]);
    expect(book.drift).toEqual([DRIFT.orderBookDollars, DRIFT.orderBookDollarsMismatch]);
  });

  it('a side with dollars but no cents, and one with cents but no dollars', () => {
    const book = normalize({ yes: [[50, 1]], no: null, no_dollars: [['0.2500', 4]] });
    expect(book.yes).toEqual([{ priceCents: '50', size: '1' }]);
    expect(book.no).toEqual([{ priceCents: '25', size: '4' }]);
  });

  it('missing and null sides are empty sides; a missing one is tagged', () => {
    expect(normalize({ yes: [[50, 1]] })).toMatchObject({ isNull: false, no: [], drift: ['missing_no'] });
    expect(normalize({ yes: null, no: [[40, 1]] })).toMatchObject({ isNull: false, yes: [], drift: [] });
  });

  it.each([
    ['1 number', [65]],
    ['price > 100 cents', [100.5, 1]],
    ['negative price', [-1, 1]],
    ['negative size', [50, -1]],
    ['a string price in the cent array', ['50', 1]],
    ['size null', [50, null]],
    ['an object', { price: 50, size: 1 }],
    ['NaN price', [Number.NaN, 1]],
  ])('an unreadable level (%s) is dropped, tagged; the others kept', (_name, level) => {
    const book = normalize({ yes: [[60, 1], level, [40, 2]], no: [[30, 3]] });
    expect(book.yes).toEqual([
      { priceCents: '60', size: '1' },
      { priceCents: '40', size: '2' },
    ]);
    expect(book.no).toEqual([{ priceCents: '30', size: '3' }]);
    expect(book.drift).toEqual([DRIFT.orderBookLevelDropped]);
  });

  it('a level of 3 numbers is read, the extra item ignored', () => {
    const book = normalize({ yes: [[65, 1, 99]], no: [] });
    expect(book.yes).toEqual([{ priceCents: '65', size: '1' }]);
    expect(book.drift).toEqual([]);
  });

  it('sizes as decimal strings are read exactly', () => {
    expect(normalize({ yes: [[50, '659518.58']], no: [] }).yes).toEqual([{ priceCents: '50', size: '659518.58' }]);
  });
});
