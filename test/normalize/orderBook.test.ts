import { describe, expect, it } from 'vitest';
import { orderBookSchema } from '../../src/wire/orderBook.js';
import type { OrderBook } from '../../src/domain/types.js';
import { normalizeOrderBook } from '../../src/normalize/orderBook.js';
import { specOrderBook } from '../wire/fixtures.js';

function normalize(body: unknown): OrderBook {
  return normalizeOrderBook(orderBookSchema.parse(body), { marketId: 'KXF1-25-LN' });
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
    });
  });

  it('null body: isNull, empty sides', () => {
    expect(normalize(null)).toEqual({ marketId: 'KXF1-25-LN', isNull: true, yes: [], no: [], drift: [] });
  });

  it('empty sides are a valid, non-null book', () => {
    expect(normalize({ yes: [], no: [] })).toMatchObject({ isNull: false, yes: [], no: [], drift: [] });
  });

  it('fractional cents and sizes, bounds 0 and 100 inclusive', () => {
    const book = normalize({ yes: [[100, 0], [99.9, 0.5], [0, 1e-7]], no: [] });
    expect(book.yes).toEqual([
      { priceCents: '100', size: '0' },
      { priceCents: '99.9', size: '0.5' },
      { priceCents: '0', size: '0.0000001' },
    ]);
  });

  it('ascending levels: reversed to best first, tagged orderbook_ascending', () => {
    const book = normalize({ yes: [[60, 10], [64, 250.5], [65, 100]], no: [[35, 80]] });
    expect(book.yes.map((l) => l.priceCents)).toEqual(['65', '64', '60']);
    expect(book.yes[0]).toEqual({ priceCents: '65', size: '100' });
    expect(book.no).toEqual([{ priceCents: '35', size: '80' }]);
    expect(book.drift).toEqual(['orderbook_ascending']);
  });

  it('a single level is never taken for ascending', () => {
    expect(normalize({ yes: [[50, 1]], no: [[40, 2]] }).drift).toEqual([]);
  });

  it('yes_dollars/no_dollars: tagged orderbook_dollars, cents levels used, raw keeps the dollars', () => {
    const body = {
      yes: [[30, 5], [65, 100]],
      no: [[35, 80]],
      yes_dollars: [['0.3000', 5], ['0.6500', 100]],
      no_dollars: [['0.3500', 80]],
    };
    const book = normalize(body);
    expect(book.yes).toEqual([
      { priceCents: '65', size: '100' },
      { priceCents: '30', size: '5' },
    ]);
    expect(book.drift).toEqual(['orderbook_dollars', 'orderbook_ascending']);
  });
});
