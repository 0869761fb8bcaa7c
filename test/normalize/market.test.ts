import { describe, expect, it } from 'vitest';

import type { Market } from '../../src/domain/types.js';
import { DRIFT, missingTag, unreadableTag } from '../../src/normalize/driftTags.js';
import { normalizeMarket } from '../../src/normalize/market.js';
import { marketSchema } from '../../src/wire/market.js';
import { recordShape } from '../../src/wire/recordShape.js';
import { NO_MARKET_METADATA, noQuote } from '../helpers/domainFixtures.js';
import { liveMarket, specMarket, without } from '../wire/fixtures.js';

function normalize(payload: Record<string, unknown>, eventId: string | null = 'POLY-30615'): Market {
  return normalizeMarket(marketSchema.parse(payload), { eventId, raw: payload, shape: recordShape(payload, 'market') });
}

describe('normalizeMarket: spec shape', () => {
  it('maps every field exactly', () => {
    const payload = specMarket();
    expect(normalize(payload)).toEqual({
      marketId: 'POLY-558936',
      eventId: 'POLY-30615',
      status: 'open',
      result: null,
      openTimeSec: 1_700_000_000,
      closeTimeSec: 1_800_000_000,
      settlementTimeSec: null,
      title: 'Will it rain?',
      subtitle: 'Tomorrow',
      description: 'Resolves YES if it rains.',
      rulesPrimary: 'Primary rules',
      rulesSecondary: 'Secondary rules',
      isTradable: true,
      pricing: {
        buyYesMicroUsd: '650000',
        buyNoMicroUsd: '360000',
        sellYesMicroUsd: '640000',
        sellNoMicroUsd: '350000',
        volume: '1234567',
      },
      pricingRejection: null,
      drift: [],
      raw: payload,
      shape: recordShape(payload, 'market'),
    });
  });

  it('keeps the payload itself as raw; eventId from context, else from the record (GET /markets/{id})', () => {
    const payload = specMarket({ eventId: 'FROM-WIRE' });
    const market = normalize(payload, null);
    expect(market.raw).toBe(payload);
    expect(market.eventId).toBe('FROM-WIRE');
    expect(normalize(payload, 'FROM-CONTEXT').eventId).toBe('FROM-CONTEXT');
    expect(normalize(specMarket(), null).eventId).toBeNull();
  });

  it('an eventId of the wrong type reads as null, tagged', () => {
    const market = normalize(specMarket({ eventId: 42 }), null);
    expect(market.eventId).toBeNull();
    expect(market.drift).toEqual([unreadableTag('eventId')]);
  });

  it('settled market: result and settlement time', () => {
    const market = normalize(specMarket({ status: 'closed', result: 'yes', settlementTime: 1_750_000_000 }));
    expect([market.status, market.result, market.settlementTimeSec]).toEqual(['closed', 'yes', 1_750_000_000]);
  });

  it('no metadata and no pricing: nulls, no drift (both are optional in the spec)', () => {
    const market = normalize(without(specMarket(), 'metadata', 'pricing'));
    expect(market).toMatchObject({ title: null, subtitle: null, description: null, isTradable: null, pricing: null, drift: [] });
  });

  it('isTradable false is kept (not treated as absent)', () => {
    const payload = specMarket();
    (payload.metadata as Record<string, unknown>).isTradable = false;
    expect(normalize(payload).isTradable).toBe(false);
  });

  it('pricing fields absent or null are null prices', () => {
    const market = normalize(specMarket({ pricing: { buyYesPriceUsd: 650000, buyNoPriceUsd: null } }));
    expect(market.pricing).toEqual({
      buyYesMicroUsd: '650000',
      buyNoMicroUsd: null,
      sellYesMicroUsd: null,
      sellNoMicroUsd: null,
      volume: null,
    });
    expect(market.drift).toEqual([]);
  });

  it('fractional and tiny numbers become exact decimal text', () => {
    const market = normalize(specMarket({ pricing: { buyYesPriceUsd: 650000.5, volume: 1e-7 } }));
    expect(market.pricing?.buyYesMicroUsd).toBe('650000.5');
    expect(market.pricing?.volume).toBe('0.0000001');
  });
});

describe('normalizeMarket: tolerated drift', () => {
  it('pricing as numeric strings: exact text, tagged pricing_as_string', () => {
    const market = normalize(
      specMarket({
        pricing: {
          buyYesPriceUsd: '650000',
          buyNoPriceUsd: '0.65',
          sellYesPriceUsd: 640000,
          sellNoPriceUsd: '350000.00',
          volume: '12345678901234567890.123456789012345678',
        },
      }),
    );
    expect(market.pricing).toEqual({
      buyYesMicroUsd: '650000',
      buyNoMicroUsd: '0.65',
      sellYesMicroUsd: '640000',
      sellNoMicroUsd: '350000',
      volume: '12345678901234567890.123456789012345678',
    });
    expect(market.drift).toEqual([DRIFT.pricingAsString]);
  });

  it.each([
    ['', DRIFT.resultEmpty],
    ['pending', DRIFT.resultPending],
  ])('result %j is unresolved (null), tagged %s', (wire, tag) => {
    const market = normalize(specMarket({ result: wire }));
    expect(market.result).toBeNull();
    expect(market.drift).toEqual([tag]);
  });

  it('resolveAt as number seconds instead of settlementTime', () => {
    const market = normalize(without(specMarket({ resolveAt: 1_750_000_000 }), 'settlementTime'));
    expect(market.settlementTimeSec).toBe(1_750_000_000);
    expect(market.drift).toEqual([DRIFT.resolveAt]);
  });

  it('resolveAt as ISO string (milliseconds kept, offsets honoured)', () => {
    const live = normalize(without(specMarket({ resolveAt: '2026-07-24T05:14:12.365Z' }), 'settlementTime'));
    expect(live.settlementTimeSec).toBe(1_784_870_052.365);
    const utc = normalize(without(specMarket({ resolveAt: '2025-06-15T12:00:00.999Z' }), 'settlementTime'));
    expect(utc.settlementTimeSec).toBe(Date.UTC(2025, 5, 15, 12) / 1000 + 0.999);
    const offset = normalize(without(specMarket({ resolveAt: '2025-06-15T14:00:00+02:00' }), 'settlementTime'));
    expect(offset.settlementTimeSec).toBe(Date.UTC(2025, 5, 15, 12) / 1000);
    expect(offset.drift).toEqual([DRIFT.resolveAt]);
  });

  it('resolveAt as a string of seconds, possibly fractional', () => {
    const market = normalize(without(specMarket({ resolveAt: '1750000000.25' }), 'settlementTime'));
    expect(market.settlementTimeSec).toBe(1_750_000_000.25);
    expect(market.drift).toEqual([DRIFT.resolveAt]);
  });

  it('resolveAt null or 0 means pending', () => {
    expect(normalize(without(specMarket({ resolveAt: null }), 'settlementTime')).settlementTimeSec).toBeNull();
    expect(normalize(without(specMarket({ resolveAt: 0 }), 'settlementTime')).settlementTimeSec).toBeNull();
  });

  it('settlementTime null or 0 means pending, no drift', () => {
    for (const settlementTime of [null, 0]) {
      const market = normalize(specMarket({ settlementTime }));
      expect(market.settlementTimeSec).toBeNull();
      expect(market.drift).toEqual([]);
    }
  });

  it('neither settlementTime nor resolveAt: null, tagged missing_settlement_time', () => {
    const market = normalize(without(specMarket(), 'settlementTime'));
    expect(market.settlementTimeSec).toBeNull();
    expect(market.drift).toEqual([DRIFT.missingSettlementTime]);
  });

  it('resolveAt beside settlementTime: the spec field wins, the drift is still recorded', () => {
    const market = normalize(specMarket({ settlementTime: 1_750_000_000, resolveAt: 1_760_000_000 }));
    expect(market.settlementTimeSec).toBe(1_750_000_000);
    expect(market.drift).toEqual([DRIFT.resolveAt]);
  });

  it('flattened market: metadata fields read from the top level', () => {
    const flat = {
      title: 'Flat title',
      subtitle: 'Flat subtitle',
      description: 'Flat description',
      rulesPrimary: 'Flat rules 1',
      rulesSecondary: 'Flat rules 2',
      isTradable: false,
    };
    const market = normalize({ ...without(specMarket(), 'metadata'), ...flat });
    expect(market).toMatchObject({ ...flat, drift: [DRIFT.flattenedMarket] });
  });

  it('nested metadata wins over top-level copies', () => {
    const market = normalize(specMarket({ title: 'Top title' }));
    expect(market.title).toBe('Will it rain?');
    expect(market.drift).toEqual([]);
  });

  it('several drifts at once are all recorded', () => {
    const market = normalize({
      ...without(
        specMarket({ result: 'pending', resolveAt: '2025-01-01T00:00:00Z', pricing: { buyYesPriceUsd: '1' } }),
        'metadata',
        'settlementTime',
      ),
      title: 'Flat',
    });
    expect([...market.drift].sort()).toEqual([DRIFT.flattenedMarket, DRIFT.pricingAsString, DRIFT.resolveAt, DRIFT.resultPending].sort());
  });
});

describe('normalizeMarket: status, result and times', () => {
  it.each(['cancelled', 'halted'])('status %j is stored as received, tagged status_unknown', (status) => {
    const market = normalize(specMarket({ status }));
    expect(market.status).toBe(status);
    expect(market.drift).toEqual([DRIFT.statusUnknown]);
  });

  it.each(['open', 'closed'])('documented status %j: no drift', (status) => {
    expect(normalize(specMarket({ status })).drift).toEqual([]);
  });

  it('status from the 2026-03 metadata copy when the top level is silent; the top level wins otherwise', () => {
    const payload = without(specMarket(), 'status');
    (payload.metadata as Record<string, unknown>).status = 'closed';
    expect(normalize(payload).status).toBe('closed');
    expect(normalize(specMarket({ status: 'open', metadata: { status: 'closed' } })).status).toBe('open');
  });

  it('no status anywhere: null, tagged missing_status', () => {
    const market = normalize(without(specMarket(), 'status', 'metadata'));
    expect(market.status).toBeNull();
    expect(market.drift).toEqual([DRIFT.missingStatus]);
  });

  it('result "void" is stored as received, tagged result_unknown; yes and no are documented', () => {
    const market = normalize(specMarket({ status: 'closed', result: 'void' }));
    expect(market.result).toBe('void');
    expect(market.drift).toEqual([DRIFT.resultUnknown]);
    expect(normalize(specMarket({ status: 'closed', result: 'no' })).drift).toEqual([]);
  });

  it('result absent everywhere: null, tagged missing_result; the metadata copy stands in otherwise', () => {
    const missing = normalize(without(specMarket(), 'result', 'metadata'));
    expect(missing.result).toBeNull();
    expect(missing.drift).toEqual([DRIFT.missingResult]);
    const fromMeta = normalize(without(specMarket({ metadata: { result: 'yes' } }), 'result'));
    expect(fromMeta.result).toBe('yes');
    expect(fromMeta.drift).toEqual([]);
  });

  it('open/close times may be fractional or strings of seconds', () => {
    const market = normalize(specMarket({ openTime: 1_700_000_000.5, closeTime: '1800000000.25' }));
    expect([market.openTimeSec, market.closeTimeSec]).toEqual([1_700_000_000.5, 1_800_000_000.25]);
  });

  it('missing times: the metadata copies stand in, else null and tagged', () => {
    const fromMeta = normalize(without(specMarket(), 'openTime', 'closeTime'));
    expect([fromMeta.openTimeSec, fromMeta.closeTimeSec]).toEqual([1_700_000_000, 1_800_000_000]);
    expect(fromMeta.drift).toEqual([]);
    const missing = normalize(without(specMarket(), 'openTime', 'closeTime', 'metadata'));
    expect([missing.openTimeSec, missing.closeTimeSec]).toEqual([null, null]);
    expect(missing.drift).toEqual([DRIFT.missingOpenTime, DRIFT.missingCloseTime]);
  });

  it('an unreadable metadata time is ignored when the top level has one, tagged when it stands in', () => {
    expect(normalize(specMarket({ metadata: { closeTime: 'x' } })).closeTimeSec).toBe(1_800_000_000);
    const market = normalize(without(specMarket({ metadata: { closeTime: 'x' } }), 'closeTime'));
    expect(market.closeTimeSec).toBeNull();
    expect(market.drift).toEqual([unreadableTag('metadata.closeTime'), missingTag('closeTime')]);
  });

  it('a market with nothing but its id: every missing spec field null and tagged', () => {
    const payload = { marketId: 'M' };
    expect(normalize(payload, null)).toEqual({
      marketId: 'M',
      eventId: null,
      status: null,
      result: null,
      openTimeSec: null,
      closeTimeSec: null,
      settlementTimeSec: null,
      ...NO_MARKET_METADATA,
      pricing: null,
      pricingRejection: null,
      drift: [DRIFT.missingStatus, DRIFT.missingResult, DRIFT.missingOpenTime, DRIFT.missingCloseTime, DRIFT.missingSettlementTime],
      raw: payload,
      shape: recordShape(payload, 'market'),
    });
  });
});

describe('normalizeMarket: tradable', () => {
  it('`tradable` is read when `isTradable` is absent, tagged tradable_renamed', () => {
    const market = normalize(liveMarket({ tradable: true }));
    expect(market.isTradable).toBe(true);
    expect(market.drift).toContain(DRIFT.tradableRenamed);
  });

  it('`tradable: false` is kept (not treated as absent)', () => {
    expect(normalize(liveMarket({ tradable: false })).isTradable).toBe(false);
  });

  it('`isTradable` (nested or top level) wins over `tradable`', () => {
    expect(normalize(specMarket({ tradable: false })).isTradable).toBe(true);
    const flat = normalize(liveMarket({ isTradable: false, tradable: true }));
    expect(flat.isTradable).toBe(false);
    expect(flat.drift).not.toContain(DRIFT.tradableRenamed);
  });

  it('neither sent: null, no drift about it', () => {
    const market = normalize(liveMarket());
    expect(market.isTradable).toBeNull();
    expect(market.drift).toEqual([DRIFT.flattenedMarket, DRIFT.resolveAt]);
  });
});

describe('normalizeMarket: pricing', () => {
  const VOLUME_BOUND = '>= 0, below 10^20 with at most 18 decimals';
  const prices = (buyYes: unknown, buyNo: unknown, sellYes: unknown, sellNo: unknown, volume: unknown = 100) => ({
    buyYesPriceUsd: buyYes,
    buyNoPriceUsd: buyNo,
    sellYesPriceUsd: sellYes,
    sellNoPriceUsd: sellNo,
    volume,
  });

  it.each([
    ['a negative price', prices(650000, -1, 640000, 350000), 'pricing.buyNoPriceUsd: must be within 0..1000000 micro-USD, got -1'],
    [
      'a price of 5,000,000',
      prices(5_000_000, 360000, 640000, 350000),
      'pricing.buyYesPriceUsd: must be within 0..1000000 micro-USD, got 5000000',
    ],
    ['a price of 1e300', prices(650000, 360000, 1e300, 350000), 'pricing.sellYesPriceUsd: must be within 0..1000000 micro-USD, got 1e+300'],
    ['a signed price string', prices(650000, 360000, 640000, '-5'), 'pricing.sellNoPriceUsd: must be within 0..1000000 micro-USD, got -5'],
    ['a negative volume', prices(650000, 360000, 640000, 350000, -3), `pricing.volume: must be ${VOLUME_BOUND}, got -3`],
    // What the export could not write exactly (DECIMAL(38,18)) is refused here, not stored.
    ['a volume of 1.5e21', prices(650000, 360000, 640000, 350000, 1.5e21), `pricing.volume: must be ${VOLUME_BOUND}, got 1.5e+21`],
    [
      'a volume with 19 decimals',
      prices(650000, 360000, 640000, 350000, '0.0000000000000000001'),
      `pricing.volume: must be ${VOLUME_BOUND}, got 0.0000000000000000001`,
    ],
  ])('%s: pricing null, pricingRejection set, market kept', (_name, pricing, reason) => {
    const market = normalize(specMarket({ pricing }));
    expect(market.pricing).toBeNull();
    expect(market.pricingRejection).toEqual({ entityId: 'POLY-558936', reason, payload: pricing, shape: recordShape(pricing, 'pricing') });
    expect(market.drift).toContain(DRIFT.pricingOutOfRange);
    expect(market).toMatchObject({ marketId: 'POLY-558936', status: 'open', title: 'Will it rain?' });
  });

  it('top-level prices out of range (2026-02 shape) are quarantined the same way', () => {
    const market = normalize({ ...without(specMarket(), 'pricing'), buyYesPriceUsd: '2000000', volumeUsd: '5' });
    expect(market.pricing).toBeNull();
    expect(market.pricingRejection?.reason).toBe('pricing.buyYesPriceUsd: must be within 0..1000000 micro-USD, got 2000000');
    expect(market.drift).toEqual([DRIFT.pricesAtTopLevel, DRIFT.pricingAsString, DRIFT.pricingOutOfRange]);
  });

  it.each(['closed', 'cancelled'])('a %s market with all four prices 0: null prices (no quote), volume kept', (status) => {
    const market = normalize(specMarket({ status, pricing: prices(0, 0, 0, 0, 26003599) }));
    expect(market.pricing).toEqual(noQuote('26003599'));
    expect(market.pricingRejection).toBeNull();
    expect(market.drift).toContain(DRIFT.noQuoteZeroPrices);
  });

  it('zero prices sent as strings on a closed market are no quote too', () => {
    const market = normalize(specMarket({ status: 'closed', pricing: prices('0', '0.0', '0', '0', '12') }));
    expect(market.pricing).toEqual(noQuote('12'));
    expect(market.drift).toEqual([DRIFT.pricingAsString, DRIFT.noQuoteZeroPrices]);
  });

  it('an open market with all four prices 0 keeps them as received', () => {
    const market = normalize(specMarket({ pricing: prices(0, 0, 0, 0) }));
    expect(market.pricing).toEqual({ buyYesMicroUsd: '0', buyNoMicroUsd: '0', sellYesMicroUsd: '0', sellNoMicroUsd: '0', volume: '100' });
    expect(market.drift).toEqual([]);
  });

  it('a closed market with only some prices 0 keeps them as received', () => {
    const market = normalize(specMarket({ status: 'closed', pricing: prices(0, 1_000_000, 0, 0) }));
    expect(market.pricing).toMatchObject({ buyYesMicroUsd: '0', buyNoMicroUsd: '1000000', sellYesMicroUsd: '0', sellNoMicroUsd: '0' });
    expect(market.drift).toEqual([]);
  });

  it('an open market with no NO bid (0) and no YES ask (1,000,000): kept as received', () => {
    const market = normalize(specMarket({ pricing: prices(1_000_000, 1000, 999000, 0, 26003599) }));
    expect(market.pricing).toEqual({
      buyYesMicroUsd: '1000000',
      buyNoMicroUsd: '1000',
      sellYesMicroUsd: '999000',
      sellNoMicroUsd: '0',
      volume: '26003599',
    });
    expect(market.pricingRejection).toBeNull();
    expect(market.drift).toEqual([]);
  });
});
