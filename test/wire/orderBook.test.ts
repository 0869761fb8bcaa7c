import { describe, expect, it } from 'vitest';

import { parseOrderBook } from '../../src/api/parse.js';
import type { OrderBookLevel } from '../../src/domain/types.js';
import { DRIFT, missingTag, unreadableTag } from '../../src/normalize/driftTags.js';
import { recordShape } from '../../src/wire/recordShape.js';
import { ok, rejected } from '../helpers/checkedResult.js';
import { liveOrderBook, specOrderBook } from './fixtures.js';

const ctx = { marketId: 'POLY-558936' };

const levels = (...pairs: [string, string][]): OrderBookLevel[] => pairs.map(([priceCents, size]) => ({ priceCents, size }));

describe('parseOrderBook', () => {
  it('accepts the spec book', () => {
    const body = specOrderBook();
    const book = ok(parseOrderBook(body, ctx));
    expect(book.yes[1]).toEqual({ priceCents: '64', size: '250.5' });
    expect(book.marketId).toBe('POLY-558936');
    expect(book.drift).toEqual([]);
    expect(book.shape).toEqual(recordShape(body, 'orderBook'));
  });

  it('rejects a body with no side of the book to read, which would otherwise read as an empty book', () => {
    for (const body of [{}, { bids: [[50, 1]], asks: [] }]) {
      expect(rejected(parseOrderBook(body, ctx))).toMatchObject({
        entityId: ctx.marketId,
        reason: 'body: none of yes, no, yes_dollars, no_dollars (no side of the book to read)',
      });
    }
  });

  it('keeps a book with one side missing, tagged, the missing side empty', () => {
    const book = ok(parseOrderBook({ yes: [[50, 1]] }, ctx));
    expect(book.yes).toEqual(levels(['50', '1']));
    expect(book.no).toEqual([]);
    expect(book.drift).toEqual([missingTag('no')]);
  });

  it('a null body is ok: isNull, empty sides', () => {
    expect(parseOrderBook(null, ctx)).toEqual({
      ok: true,
      value: { marketId: 'POLY-558936', isNull: true, yes: [], no: [], drift: [], shape: recordShape(null, 'orderBook') },
    });
  });

  it("today's book: dollar prices exact, ascending levels reordered best first", () => {
    const book = ok(parseOrderBook(liveOrderBook(), ctx));
    expect(book.yes).toEqual(levels(['99.9', '659518.58'], ['99.5', '5'], ['99.4', '10']));
    expect(book.no).toEqual([]);
    expect(book.drift).toEqual([DRIFT.orderBookDollars, DRIFT.orderBookAscending]);
  });

  it('accepts the dollars + ascending drift', () => {
    const book = ok(
      parseOrderBook(
        {
          yes: [
            [1, 2],
            [3, 4],
          ],
          no: [],
          yes_dollars: [
            ['0.01', 2],
            ['0.03', 4],
          ],
          no_dollars: [],
        },
        ctx,
      ),
    );
    expect(book.yes.map((l) => l.priceCents)).toEqual(['3', '1']);
    expect(book.drift).toEqual([DRIFT.orderBookDollars, DRIFT.orderBookAscending]);
  });

  const dropped: [string, unknown, OrderBookLevel[], OrderBookLevel[]][] = [
    ['level of 1 number', { yes: [[50, 1]], no: [[65]] }, levels(['50', '1']), []],
    [
      'price above 100 cents',
      {
        yes: [
          [100.5, 1],
          [50, 1],
        ],
        no: [],
      },
      levels(['50', '1']),
      [],
    ],
    [
      'negative price',
      {
        yes: [
          [-1, 1],
          [50, 1],
        ],
        no: [],
      },
      levels(['50', '1']),
      [],
    ],
    [
      'negative size',
      {
        yes: [
          [50, -0.5],
          [40, 1],
        ],
        no: [],
      },
      levels(['40', '1']),
      [],
    ],
    [
      'price as string in the cent array',
      {
        yes: [
          ['50', 1],
          [40, 1],
        ],
        no: [],
      },
      levels(['40', '1']),
      [],
    ],
    [
      'size null',
      {
        yes: [
          [50, null],
          [40, 1],
        ],
        no: [],
      },
      levels(['40', '1']),
      [],
    ],
    ['level as object', { yes: [{ price: 50, size: 1 }, [40, 1]], no: [] }, levels(['40', '1']), []],
    ['level as a bare number', { yes: [], no: [50, [40, 2]] }, [], levels(['40', '2'])],
    [
      'dollar price above $1',
      {
        yes: [],
        no: [],
        yes_dollars: [
          ['1.5000', 1],
          ['0.5000', 2],
        ],
      },
      levels(['50', '2']),
      [],
    ],
    [
      'dollar price not a decimal',
      {
        yes: [],
        no: [],
        yes_dollars: [
          ['abc', 1],
          ['0.5000', 2],
        ],
      },
      levels(['50', '2']),
      [],
    ],
  ];
  it.each(dropped)('a level that cannot be read (%s) is dropped and tagged; the book is kept', (_name, body, yes, no) => {
    const book = ok(parseOrderBook(body, ctx));
    expect(book.yes).toEqual(yes);
    expect(book.no).toEqual(no);
    expect(book.drift).toContain(DRIFT.orderBookLevelDropped);
    expect(book.shape).toEqual(recordShape(body, 'orderBook'));
  });

  it('a level of 3 numbers is read (extra items ignored), no drift', () => {
    const book = ok(parseOrderBook({ yes: [[65, 1, 2]], no: [] }, ctx));
    expect(book.yes).toEqual(levels(['65', '1']));
    expect(book.drift).toEqual([]);
  });

  it('a null side is an empty side; a missing one too, tagged (the live service sends [] for an empty side)', () => {
    expect(ok(parseOrderBook({ yes: [[50, 1]] }, ctx))).toMatchObject({
      isNull: false,
      yes: levels(['50', '1']),
      no: [],
      drift: [missingTag('no')],
    });
    expect(ok(parseOrderBook({ yes: null, no: [[40, 1]] }, ctx))).toMatchObject({
      isNull: false,
      yes: [],
      no: levels(['40', '1']),
      drift: [],
    });
  });

  /** Wire levels of one side, [price, size] each. */
  const wireSide = (...pairs: [number | string, number][]) => pairs;

  const readAndTagged: [string, unknown, 'yes' | 'no', OrderBookLevel[], string[]][] = [
    [
      'unsorted levels are accepted and sorted best first',
      { yes: wireSide([60, 1], [50, 2], [55, 3]), no: [] },
      'yes',
      levels(['60', '1'], ['55', '3'], ['50', '2']),
      [DRIFT.orderBookAscending],
    ],
    [
      'repeated prices are merged by summing sizes',
      { yes: [], no: wireSide([40, 1], [40, 2.5], [30, 1]) },
      'no',
      levels(['40', '3.5'], ['30', '1']),
      [DRIFT.orderBookMergedLevels],
    ],
    [
      'the dollar arrays give the exact price ("0.9950" -> 99.5 cents)',
      { yes: wireSide([100, 1], [99, 2]), no: [], yes_dollars: wireSide(['0.9950', 1], ['0.9900', 2]) },
      'yes',
      levels(['99.5', '1'], ['99', '2']),
      [DRIFT.orderBookDollars],
    ],
    [
      'dollar and cent arrays of different lengths: the dollars count, tagged',
      { yes: wireSide([100, 1]), no: [], yes_dollars: wireSide(['0.9950', 1], ['0.9900', 2]) },
      'yes',
      levels(['99.5', '1'], ['99', '2']),
      [DRIFT.orderBookDollars, DRIFT.orderBookDollarsMismatch],
    ],
  ];
  it.each(readAndTagged)('%s', (_name, body, side, expected, drift) => {
    const book = ok(parseOrderBook(body, ctx));
    expect(book[side]).toEqual(expected);
    expect(book.drift).toEqual(drift);
  });

  it('reads a side that is not an array as absent, tagged, and keeps the book', () => {
    const book = ok(parseOrderBook({ yes: 'x', no: [[40, 2]] }, ctx));
    expect(book.yes).toEqual([]);
    expect(book.no).toEqual([{ priceCents: '40', size: '2' }]);
    expect(book.drift).toContain(unreadableTag('yes'));
  });

  it('falls back to the cent levels when a dollar side is not an array', () => {
    const book = ok(parseOrderBook({ yes: [[40, 2]], no: [], yes_dollars: 'x' }, ctx));
    expect(book.yes).toEqual([{ priceCents: '40', size: '2' }]);
    expect(book.drift).toContain(unreadableTag('yes_dollars'));
    expect(book.drift).not.toContain(DRIFT.orderBookDollars);
  });

  it('rejects a side of more than 10,000 levels', () => {
    const body = { yes: [], no: new Array(10_001).fill([1, 1]) };
    expect(rejected(parseOrderBook(body, ctx))).toMatchObject({
      entityId: 'POLY-558936',
      reason: 'no: too many items: 10001 (max 10000)',
      payload: body,
    });
  });

  it.each([[[]], ['book'], [42], [undefined]])('a body that is neither object nor null (%j) is a rejection', (body) => {
    expect(rejected(parseOrderBook(body, ctx)).reason).toMatch(/^(expected an object, got |required)/);
  });

  it('the shape example keeps at most 3 levels per side', () => {
    const body = {
      yes: [
        [1, 1],
        [2, 2],
        [3, 3],
        [4, 4],
        [5, 5],
      ],
      no: [],
      yes_dollars: [
        ['0.0100', 1],
        ['0.0200', 2],
        ['0.0300', 3],
        ['0.0400', 4],
        ['0.0500', 5],
      ],
      exampleTest: 1,
    };
    const book = ok(parseOrderBook(body, ctx));
    expect(book.yes).toHaveLength(5);
    expect(book.shape.example).toEqual({
      yes: [
        [1, 1],
        [2, 2],
        [3, 3],
      ],
      no: [],
      yes_dollars: [
        ['0.0100', 1],
        ['0.0200', 2],
        ['0.0300', 3],
      ],
      exampleTest: 1,
    });
    expect(book.shape.paths).toEqual([
      'exampleTest:number',
      'no:array',
      'yes:array',
      'yes[]:array',
      'yes[][]:number',
      'yes_dollars:array',
      'yes_dollars[]:array',
      'yes_dollars[][]:number',
      'yes_dollars[][]:string',
    ]);
  });
});
