import { describe, expect, it } from 'vitest';
import { marketSchema } from '../../src/wire/market.js';
import type { Market } from '../../src/domain/types.js';
import { normalizeMarket } from '../../src/normalize/market.js';
import { specMarket, without } from '../wire/fixtures.js';

function normalize(payload: Record<string, unknown>, eventId: string | null = 'POLY-30615'): Market {
  return normalizeMarket(marketSchema.parse(payload), { eventId, raw: payload });
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
      drift: [],
      raw: payload,
    });
  });

  it('keeps the payload itself as raw and takes eventId from context only', () => {
    const payload = specMarket({ eventId: 'FROM-WIRE' });
    const market = normalize(payload, null);
    expect(market.raw).toBe(payload);
    expect(market.eventId).toBeNull();
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
    expect(market.pricing).toEqual({ buyYesMicroUsd: '650000', buyNoMicroUsd: null, sellYesMicroUsd: null, sellNoMicroUsd: null, volume: null });
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
      specMarket({ pricing: { buyYesPriceUsd: '650000', buyNoPriceUsd: '0.65', sellYesPriceUsd: 640000, sellNoPriceUsd: '350000.00', volume: '123456789012345678901234567890' } }),
    );
    expect(market.pricing).toEqual({
      buyYesMicroUsd: '650000',
      buyNoMicroUsd: '0.65',
      sellYesMicroUsd: '640000',
      sellNoMicroUsd: '350000',
      volume: '123456789012345678901234567890',
    });
    expect(market.drift).toEqual(['pricing_as_string']);
  });

  it.each([
    ['', 'result_empty'],
    ['pending', 'result_pending'],
  ])('result %j is unresolved (null), tagged %s', (wire, tag) => {
    const market = normalize(specMarket({ result: wire }));
    expect(market.result).toBeNull();
    expect(market.drift).toEqual([tag]);
  });

  it('resolveAt as number seconds instead of settlementTime', () => {
    const market = normalize(without(specMarket({ resolveAt: 1_750_000_000 }), 'settlementTime'));
    expect(market.settlementTimeSec).toBe(1_750_000_000);
    expect(market.drift).toEqual(['resolve_at']);
  });

  it('resolveAt as ISO string (sub-second digits floored, offsets honoured)', () => {
    const utc = normalize(without(specMarket({ resolveAt: '2025-06-15T12:00:00.999Z' }), 'settlementTime'));
    expect(utc.settlementTimeSec).toBe(Date.UTC(2025, 5, 15, 12) / 1000);
    const offset = normalize(without(specMarket({ resolveAt: '2025-06-15T14:00:00+02:00' }), 'settlementTime'));
    expect(offset.settlementTimeSec).toBe(Date.UTC(2025, 5, 15, 12) / 1000);
    expect(offset.drift).toEqual(['resolve_at']);
  });

  it('resolveAt null or 0 means pending', () => {
    expect(normalize(without(specMarket({ resolveAt: null }), 'settlementTime')).settlementTimeSec).toBeNull();
    expect(normalize(without(specMarket({ resolveAt: 0 }), 'settlementTime')).settlementTimeSec).toBeNull();
  });

  it('resolveAt beside settlementTime: the spec field wins, the drift is still recorded', () => {
    const market = normalize(specMarket({ settlementTime: 1_750_000_000, resolveAt: 1_760_000_000 }));
    expect(market.settlementTimeSec).toBe(1_750_000_000);
    expect(market.drift).toEqual(['resolve_at']);
  });

  it('flattened market: metadata fields read from the top level', () => {
    const payload = {
      ...without(specMarket(), 'metadata'),
      title: 'Flat title',
      subtitle: 'Flat subtitle',
      description: 'Flat description',
      rulesPrimary: 'Flat rules 1',
      rulesSecondary: 'Flat rules 2',
      isTradable: false,
    };
    const market = normalize(payload);
    expect(market).toMatchObject({
      title: 'Flat title',
      subtitle: 'Flat subtitle',
      description: 'Flat description',
      rulesPrimary: 'Flat rules 1',
      rulesSecondary: 'Flat rules 2',
      isTradable: false,
      drift: ['flattened_market'],
    });
  });

  it('nested metadata wins over top-level copies', () => {
    const market = normalize(specMarket({ title: 'Top title' }));
    expect(market.title).toBe('Will it rain?');
    expect(market.drift).toEqual([]);
  });

  it('several drifts at once are all recorded', () => {
    const market = normalize({
      ...without(specMarket({ result: 'pending', resolveAt: '2025-01-01T00:00:00Z', pricing: { buyYesPriceUsd: '1' } }), 'metadata', 'settlementTime'),
      title: 'Flat',
    });
    expect([...market.drift].sort()).toEqual(['flattened_market', 'pricing_as_string', 'resolve_at', 'result_pending']);
  });
});
