import { describe, expect, it } from 'vitest';

import { parseMarket } from '../../src/api/parse.js';
import type { Market } from '../../src/domain/types.js';
import { DRIFT, missingTag, unreadableTag } from '../../src/normalize/driftTags.js';
import { recordShape } from '../../src/wire/recordShape.js';
import { ok, rejected } from '../helpers/checkedResult.js';
import { noQuote } from '../helpers/domainFixtures.js';
import { liveMarket, specMarket, without } from './fixtures.js';

describe('parseMarket', () => {
  it('accepts the spec market, eventId from context', () => {
    const market = ok(parseMarket(specMarket(), { eventId: 'POLY-30615' }));
    expect([market.marketId, market.eventId, market.pricing?.buyYesMicroUsd, market.pricingRejection, market.drift]).toEqual([
      'POLY-558936',
      'POLY-30615',
      '650000',
      null,
      [],
    ]);
    expect(ok(parseMarket(specMarket(), { eventId: null })).eventId).toBeNull();
  });

  it("accepts today's live shape: flat, resolveAt instead of settlementTime, extras kept in raw", () => {
    const payload = liveMarket({ eventId: 'POLY-572993' });
    const market = ok(parseMarket(payload, { eventId: null }));
    expect(market).toMatchObject({
      marketId: 'POLY-2470848',
      // GET /markets/{id} carries the event id itself: used when the context has none.
      eventId: 'POLY-572993',
      status: 'open',
      result: null,
      openTimeSec: 1_784_304_000,
      closeTimeSec: 1_784_692_980,
      settlementTimeSec: null,
      title: 'SOL $500 by Q2 2026',
      rulesPrimary: 'Resolves YES if SOL reaches $500.',
      rulesSecondary: '',
      isTradable: null,
      pricing: {
        buyYesMicroUsd: '650000',
        buyNoMicroUsd: '380000',
        sellYesMicroUsd: '620000',
        sellNoMicroUsd: '350000',
        volume: '26003599',
      },
      pricingRejection: null,
    });
    expect(market.drift).toEqual([DRIFT.flattenedMarket, DRIFT.resolveAt]);
    expect(market.raw).toBe(payload);
    expect(market.shape).toEqual(recordShape(payload, 'market'));
  });

  it('a resolved live market: resolveAt (ISO, milliseconds kept) fills settlementTimeSec', () => {
    const market = ok(
      parseMarket(liveMarket({ status: 'closed', result: 'no', resolveAt: '2026-07-24T05:14:12.365Z' }), { eventId: null }),
    );
    expect([market.status, market.result, market.settlementTimeSec]).toEqual(['closed', 'no', 1_784_870_052.365]);
  });

  it('accepts every documented drift shape at once', () => {
    const payload = {
      ...without(specMarket(), 'metadata', 'settlementTime'),
      result: '',
      resolveAt: '2025-01-01T00:00:00Z',
      title: 'Flat',
      pricing: { buyYesPriceUsd: '650000' },
      provider: 'bisonfi',
    };
    const market = ok(parseMarket(payload, { eventId: null }));
    expect(market).toMatchObject({
      result: null,
      settlementTimeSec: 1_735_689_600,
      title: 'Flat',
      pricing: { buyYesMicroUsd: '650000' },
    });
    expect([...market.drift].sort()).toEqual([DRIFT.flattenedMarket, DRIFT.pricingAsString, DRIFT.resolveAt, DRIFT.resultEmpty].sort());
  });

  it('the 2026-02 shape: prices and volumeUsd at the top level', () => {
    const payload = { ...without(specMarket(), 'pricing'), buyYesPriceUsd: '650000', sellNoPriceUsd: '350000', volumeUsd: '1234' };
    const market = ok(parseMarket(payload, { eventId: null }));
    expect(market.pricing).toEqual({
      buyYesMicroUsd: '650000',
      buyNoMicroUsd: null,
      sellYesMicroUsd: null,
      sellNoMicroUsd: '350000',
      volume: '1234',
    });
    expect(market.drift).toEqual([DRIFT.pricesAtTopLevel, DRIFT.pricingAsString]);
  });

  const rejections: [string, unknown, string][] = [
    ['missing marketId', without(specMarket(), 'marketId'), 'marketId: required'],
    ['empty marketId', specMarket({ marketId: '' }), 'marketId: must not be empty'],
    ['numeric marketId', specMarket({ marketId: 12 }), 'marketId: expected string, got 12'],
    ['id longer than 256', specMarket({ marketId: 'M'.repeat(257) }), 'marketId: too long: 257 characters (max 256)'],
    ['settlementTime "NaN"', specMarket({ settlementTime: 'NaN' }), 'settlementTime: expected Unix seconds, got "NaN"'],
    [
      'resolveAt garbage',
      without(specMarket({ resolveAt: 'tomorrow' }), 'settlementTime'),
      'resolveAt: expected Unix seconds or an ISO 8601 date-time, got "tomorrow"',
    ],
    [
      'resolveAt before 1970',
      without(specMarket({ resolveAt: '1969-12-31T00:00:00Z' }), 'settlementTime'),
      'resolveAt: must be >= 0, got -86400',
    ],
    [
      'price as boolean',
      specMarket({ pricing: { buyYesPriceUsd: true } }),
      'pricing.buyYesPriceUsd: expected a number or decimal string, got true',
    ],
    [
      'price string "abc"',
      specMarket({ pricing: { buyNoPriceUsd: 'abc' } }),
      'pricing.buyNoPriceUsd: expected a decimal number, got "abc"',
    ],
    ['price string with blanks', specMarket({ pricing: { volume: ' 5' } }), 'pricing.volume: expected a decimal number, got " 5"'],
    [
      'top-level price not a number',
      { ...without(specMarket(), 'pricing'), buyYesPriceUsd: 'NaN' },
      'buyYesPriceUsd: expected a decimal number, got "NaN"',
    ],
    ['pricing not an object', specMarket({ pricing: 'cheap' }), 'pricing: expected an object, got "cheap"'],
    ['a body that is not an object', [specMarket()], 'expected an object, got an array of 1 item'],
  ];
  it.each(rejections)('still rejects %s, with a readable reason', (_name, payload, reason) => {
    const rejection = rejected(parseMarket(payload, { eventId: null }));
    expect(rejection.reason).toBe(reason);
    expect(rejection.payload).toBe(payload);
    expect(rejection.shape).toEqual(recordShape(payload, 'market'));
  });

  const tolerated: [string, Record<string, unknown>, Partial<Market>, string[]][] = [
    ['status outside the documented list', specMarket({ status: 'halted' }), { status: 'halted' }, [DRIFT.statusUnknown]],
    ['status "cancelled"', specMarket({ status: 'cancelled' }), { status: 'cancelled' }, [DRIFT.statusUnknown]],
    ['status not a string (metadata copy stands in)', specMarket({ status: 5 }), { status: 'open' }, [unreadableTag('status')]],
    ['missing status, no metadata', without(specMarket(), 'status', 'metadata'), { status: null }, [DRIFT.missingStatus]],
    ['missing status, the 2026-03 metadata copy stands in', without(specMarket(), 'status'), { status: 'open' }, []],
    ['result "void"', specMarket({ result: 'void' }), { result: 'void' }, [DRIFT.resultUnknown]],
    ['result "YES" (not the documented spelling)', specMarket({ result: 'YES' }), { result: 'YES' }, [DRIFT.resultUnknown]],
    ['result ""', specMarket({ result: '' }), { result: null }, [DRIFT.resultEmpty]],
    ['result "pending"', specMarket({ result: 'pending' }), { result: null }, [DRIFT.resultPending]],
    ['missing result, no metadata', without(specMarket(), 'result', 'metadata'), { result: null }, [DRIFT.missingResult]],
    ['missing closeTime, no metadata', without(specMarket(), 'closeTime', 'metadata'), { closeTimeSec: null }, [DRIFT.missingCloseTime]],
    ['missing openTime, the metadata copy stands in', without(specMarket(), 'openTime'), { openTimeSec: 1_700_000_000 }, []],
    ['closeTime as a string of seconds', specMarket({ closeTime: '1800000000' }), { closeTimeSec: 1_800_000_000 }, []],
    ['fractional openTime', specMarket({ openTime: 1_700_000_000.25 }), { openTimeSec: 1_700_000_000.25 }, []],
    // An open or close time that cannot be read: null (or the metadata copy), tagged; the market stays.
    [
      'openTime not a number, the metadata copy stands in',
      specMarket({ openTime: 'abc' }),
      { openTimeSec: 1_700_000_000 },
      [unreadableTag('openTime')],
    ],
    [
      'negative openTime, the metadata copy stands in',
      specMarket({ openTime: -5 }),
      { openTimeSec: 1_700_000_000 },
      [unreadableTag('openTime')],
    ],
    [
      'closeTime as a boolean, no metadata',
      without(specMarket({ closeTime: true }), 'metadata'),
      { closeTimeSec: null },
      [unreadableTag('closeTime'), DRIFT.missingCloseTime],
    ],
    [
      'closeTime in milliseconds, no metadata',
      without(specMarket({ closeTime: 1_800_000_000_000 }), 'metadata'),
      { closeTimeSec: null },
      [unreadableTag('closeTime'), DRIFT.missingCloseTime],
    ],
    [
      'missing settlementTime and resolveAt',
      without(specMarket(), 'settlementTime'),
      { settlementTimeSec: null },
      [DRIFT.missingSettlementTime],
    ],
    ['settlementTime null (pending)', specMarket({ settlementTime: null }), { settlementTimeSec: null }, []],
    ['fractional settlementTime', specMarket({ settlementTime: 1_750_000_000.5 }), { settlementTimeSec: 1_750_000_000.5 }, []],
    ['isTradable as string', specMarket({ metadata: { isTradable: 'yes' } }), { isTradable: null }, [unreadableTag('metadata.isTradable')]],
    ['title not a string', { ...without(specMarket(), 'metadata'), title: 42 }, { title: null }, [unreadableTag('title')]],
    ['metadata not an object', specMarket({ metadata: [] }), { title: null }, [unreadableTag('metadata')]],
  ];
  it.each(tolerated)('accepts %s, tagged', (_name, payload, fields, drift) => {
    const market = ok(parseMarket(payload, { eventId: null }));
    expect(market).toMatchObject(fields);
    expect(market.drift).toEqual(drift);
    expect(market.raw).toBe(payload);
    expect(market.pricingRejection).toBeNull();
  });

  it('a market with nothing but its id is accepted, every missing spec field tagged', () => {
    const market = ok(parseMarket({ marketId: 'M' }, { eventId: 'E' }));
    expect(market).toMatchObject({
      marketId: 'M',
      eventId: 'E',
      status: null,
      result: null,
      openTimeSec: null,
      closeTimeSec: null,
      settlementTimeSec: null,
      pricing: null,
    });
    expect(market.drift).toEqual([
      missingTag('status'),
      missingTag('result'),
      missingTag('openTime'),
      missingTag('closeTime'),
      missingTag('settlementTime'),
    ]);
  });

  it('the rejection carries the market id when readable', () => {
    expect(rejected(parseMarket(specMarket({ settlementTime: 'x' }), { eventId: null })).entityId).toBe('POLY-558936');
    expect(rejected(parseMarket(specMarket({ marketId: 12 }), { eventId: null })).entityId).toBeNull();
  });

  it('caps the list of problems', () => {
    expect(rejected(parseMarket({}, { eventId: null })).reason).toBe('marketId: required');
    const payload = { settlementTime: 'c', resolveAt: 'd', pricing: 1, buyYesPriceUsd: 'x', buyNoPriceUsd: 'y', sellYesPriceUsd: 'z' };
    expect(rejected(parseMarket(payload, { eventId: null })).reason).toMatch(
      /^marketId: required; settlementTime: expected Unix seconds, got "c"; resolveAt: expected Unix seconds or an ISO 8601 date-time, got "d"; .* \(\+\d+ more\)$/,
    );
  });
});

describe('parseMarket: pricing', () => {
  it.each([
    ['negative', -1, 'got -1'],
    ['above $1', 5_000_000, 'got 5000000'],
    ['1e300 as a JSON number', 1e300, 'got 1e+300'],
    ['a signed string', '-5', 'got -5'],
  ])('a price out of range (%s) quarantines the pricing and keeps the market', (_name, price, got) => {
    const pricing = { buyYesPriceUsd: 650000, buyNoPriceUsd: 360000, sellYesPriceUsd: 640000, sellNoPriceUsd: price, volume: 10 };
    const market = ok(parseMarket(specMarket({ pricing }), { eventId: null }));
    expect(market.pricing).toBeNull();
    expect(market.pricingRejection).toEqual({
      entityId: 'POLY-558936',
      reason: `pricing.sellNoPriceUsd: must be within 0..1000000 micro-USD, ${got}`,
      payload: pricing,
      shape: recordShape(pricing, 'pricing'),
    });
    expect(market.drift).toContain(DRIFT.pricingOutOfRange);
    // Everything else about the market is kept.
    expect(market).toMatchObject({ marketId: 'POLY-558936', status: 'open', title: 'Will it rain?', closeTimeSec: 1_800_000_000 });
  });

  it('a negative volume quarantines the pricing too', () => {
    const market = ok(parseMarket(specMarket({ pricing: { buyYesPriceUsd: 1, volume: -5 } }), { eventId: null }));
    expect(market.pricing).toBeNull();
    expect(market.pricingRejection?.reason).toBe('pricing.volume: must be >= 0, below 10^20 with at most 18 decimals, got -5');
    expect(market.drift).toEqual([DRIFT.pricingOutOfRange]);
  });

  it('the bounds 0 and 1,000,000 are in range', () => {
    const market = ok(parseMarket(specMarket({ pricing: { buyYesPriceUsd: 1_000_000, sellYesPriceUsd: 0 } }), { eventId: null }));
    expect(market.pricing).toMatchObject({ buyYesMicroUsd: '1000000', sellYesMicroUsd: '0' });
    expect(market.pricingRejection).toBeNull();
  });

  it('a closed market quoting four zero prices: null prices (no quote), volume kept', () => {
    const pricing = { buyYesPriceUsd: 0, buyNoPriceUsd: 0, sellYesPriceUsd: 0, sellNoPriceUsd: 0, volume: 26003599 };
    const market = ok(parseMarket(liveMarket({ status: 'closed', result: 'no', pricing }), { eventId: null }));
    expect(market.pricing).toEqual(noQuote('26003599'));
    expect(market.pricingRejection).toBeNull();
    expect(market.drift).toContain(DRIFT.noQuoteZeroPrices);
  });

  it('an open market with no YES ask and no NO bid (1,000,000 and 0) is kept as received', () => {
    const pricing = { buyYesPriceUsd: 1_000_000, buyNoPriceUsd: 1000, sellYesPriceUsd: 999000, sellNoPriceUsd: 0, volume: 5 };
    const market = ok(parseMarket(liveMarket({ pricing }), { eventId: null }));
    expect(market.pricing).toEqual({
      buyYesMicroUsd: '1000000',
      buyNoMicroUsd: '1000',
      sellYesMicroUsd: '999000',
      sellNoMicroUsd: '0',
      volume: '5',
    });
    expect(market.drift).not.toContain(DRIFT.noQuoteZeroPrices);
    expect(market.drift).not.toContain(DRIFT.pricingOutOfRange);
  });

  it('null prices (third-party reports of closed markets) are null, no drift', () => {
    const pricing = { buyYesPriceUsd: null, buyNoPriceUsd: null, sellYesPriceUsd: null, sellNoPriceUsd: null, volume: 7 };
    const market = ok(parseMarket(liveMarket({ status: 'closed', result: 'yes', pricing }), { eventId: null }));
    expect(market.pricing).toEqual(noQuote('7'));
    expect(market.drift).toEqual([DRIFT.flattenedMarket, DRIFT.resolveAt]);
  });
});

describe('parseMarket: tradable', () => {
  it('`tradable` (the 2026-07 name) is read when `isTradable` is absent', () => {
    const market = ok(parseMarket(liveMarket({ tradable: false }), { eventId: null }));
    expect(market.isTradable).toBe(false);
    expect(market.drift).toContain(DRIFT.tradableRenamed);
  });

  it('`isTradable` wins when both are sent', () => {
    const market = ok(parseMarket(liveMarket({ isTradable: true, tradable: false }), { eventId: null }));
    expect(market.isTradable).toBe(true);
    expect(market.drift).not.toContain(DRIFT.tradableRenamed);
  });

  it('`tradable` of the wrong type reads as null, tagged', () => {
    const market = ok(parseMarket(liveMarket({ tradable: 'yes' }), { eventId: null }));
    expect(market.isTradable).toBeNull();
    expect(market.drift).toContain(unreadableTag('tradable'));
    expect(market.drift).not.toContain(DRIFT.tradableRenamed);
  });
});

describe('recordShape of a market', () => {
  it('is the same for two records with the same keys and types, whatever the values', () => {
    const a = recordShape(liveMarket(), 'market');
    const b = recordShape(
      liveMarket({
        marketId: 'POLY-1',
        title: 'Other',
        pricing: { buyYesPriceUsd: 1, buyNoPriceUsd: 2, sellYesPriceUsd: 3, sellNoPriceUsd: 4, volume: 5 },
      }),
      'market',
    );
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(b.paths).toEqual(a.paths);
    // Key order is the sender's business, not the shape's.
    const reordered = Object.fromEntries(Object.entries(liveMarket()).reverse());
    expect(recordShape(reordered, 'market').fingerprint).toBe(a.fingerprint);
  });

  it('differs when a field changes type', () => {
    const numbers = recordShape(liveMarket(), 'market');
    const strings = recordShape(
      liveMarket({
        pricing: { buyYesPriceUsd: '650000', buyNoPriceUsd: 380000, sellYesPriceUsd: 620000, sellNoPriceUsd: 350000, volume: 26003599 },
      }),
      'market',
    );
    expect(strings.fingerprint).not.toBe(numbers.fingerprint);
    expect(numbers.paths).toContain('pricing.buyYesPriceUsd:number');
    expect(strings.paths).toContain('pricing.buyYesPriceUsd:string');
    expect(numbers.changes).toEqual([]);
    expect(strings.changes).toEqual([{ kind: 'changed_type', path: 'pricing.buyYesPriceUsd', detail: 'number -> string' }]);
  });

  it('is the same whether an optional field is null or holds a value: nullability is no change', () => {
    const pending = recordShape(liveMarket(), 'market');
    const resolved = recordShape(liveMarket({ resolveAt: '2026-07-24T05:14:12.365Z', imageUrl: null }), 'market');
    expect(pending.paths).toContain('resolveAt:null');
    expect(resolved.paths).toContain('resolveAt:string');
    expect(resolved.fingerprint).toBe(pending.fingerprint);
    expect(resolved.changes).toEqual([]);
  });

  it('lists sorted key paths with JSON types, array items sharing one path', () => {
    const shape = recordShape({ b: [1, 2, 3], a: { c: null, d: [['x', 1]] } }, 'market');
    expect(shape.paths).toEqual([
      'a.c:null',
      'a.d:array',
      'a.d[]:array',
      'a.d[][]:number',
      'a.d[][]:string',
      'a:object',
      'b:array',
      'b[]:number',
    ]);
    expect(shape.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('keeps at most 3 items per array in its example', () => {
    const payload = liveMarket({
      clobTokenIds: ['1', '2', '3', '4', '5'],
      marketOptions: [1, 2, 3, 4].map((n) => ({ label: `L${n}`, picks: [n, n, n, n, n] })),
      shapeExampleTest: true,
    });
    const example = recordShape(payload, 'market').example as Record<string, unknown>;
    expect(example.clobTokenIds).toEqual(['1', '2', '3']);
    expect(example.marketOptions).toEqual([1, 2, 3].map((n) => ({ label: `L${n}`, picks: [n, n, n] })));
    expect(example.title).toBe('SOL $500 by Q2 2026');
    // The payload itself is untouched.
    expect(payload.clobTokenIds).toHaveLength(5);
  });
});
