import { describe, expect, it } from 'vitest';
import { parseMarket } from '../../src/api/parse.js';
import type { Checked, Market, Rejection } from '../../src/domain/types.js';
import { specMarket, without } from './fixtures.js';

function rejected(checked: Checked<Market>): Rejection {
  if (checked.ok) throw new Error('expected a rejection');
  return checked.rejection;
}

describe('parseMarket', () => {
  it('accepts the spec market, eventId from context', () => {
    const checked = parseMarket(specMarket(), { eventId: 'POLY-30615' });
    expect(checked.ok && [checked.value.marketId, checked.value.eventId, checked.value.pricing?.buyYesMicroUsd]).toEqual([
      'POLY-558936',
      'POLY-30615',
      '650000',
    ]);
    const alone = parseMarket(specMarket(), { eventId: null });
    expect(alone.ok && alone.value.eventId).toBeNull();
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
    const checked = parseMarket(payload, { eventId: null });
    expect(checked.ok && checked.value).toMatchObject({
      result: null,
      settlementTimeSec: 1_735_689_600,
      title: 'Flat',
      pricing: { buyYesMicroUsd: '650000' },
    });
    expect(checked.ok && [...checked.value.drift].sort()).toEqual(['flattened_market', 'pricing_as_string', 'resolve_at', 'result_empty']);
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ['status outside the enum', specMarket({ status: 'halted' }), 'status: expected one of open|closed, got "halted"'],
    ['missing status', without(specMarket(), 'status'), 'status: required'],
    ['result outside the enum', specMarket({ result: 'YES' }), 'result: expected one of null|yes|no, got "YES"'],
    ['missing result', without(specMarket(), 'result'), 'result: required'],
    ['missing closeTime', without(specMarket(), 'closeTime'), 'closeTime: required'],
    ['closeTime as string', specMarket({ closeTime: '1800000000' }), 'closeTime: expected number, got "1800000000"'],
    ['negative openTime', specMarket({ openTime: -5 }), 'openTime: must be >= 0, got -5'],
    ['fractional openTime', specMarket({ openTime: 1.5 }), 'openTime: expected an integer, got 1.5'],
    ['closeTime in milliseconds', specMarket({ closeTime: 1_800_000_000_000 }), 'closeTime: must be <= 253402300799, got 1800000000000'],
    ['missing settlementTime and resolveAt', without(specMarket(), 'settlementTime'), 'settlementTime: required'],
    ['settlementTime null', specMarket({ settlementTime: null }), 'settlementTime: expected number, got null'],
    ['resolveAt garbage', without(specMarket({ resolveAt: 'tomorrow' }), 'settlementTime'), 'resolveAt: expected Unix seconds or an ISO 8601 date-time, got "tomorrow"'],
    ['resolveAt before 1970', without(specMarket({ resolveAt: '1969-12-31T00:00:00Z' }), 'settlementTime'), 'resolveAt: must be >= 0, got -86400'],
    ['missing marketId', without(specMarket(), 'marketId'), 'marketId: required'],
    ['id longer than 256', specMarket({ marketId: 'M'.repeat(257) }), 'marketId: too long: 257 characters (max 256)'],
    ['negative price', specMarket({ pricing: { buyYesPriceUsd: -1 } }), 'pricing.buyYesPriceUsd: must be >= 0, got -1'],
    ['price as boolean', specMarket({ pricing: { buyYesPriceUsd: true } }), 'pricing.buyYesPriceUsd: expected a non-negative number or decimal string, got true'],
    ['price string with sign', specMarket({ pricing: { sellNoPriceUsd: '-650000' } }), 'pricing.sellNoPriceUsd: expected a non-negative decimal number, got "-650000"'],
    ['price string with blanks', specMarket({ pricing: { volume: ' 5' } }), 'pricing.volume: expected a non-negative decimal number, got " 5"'],
    ['pricing not an object', specMarket({ pricing: 'cheap' }), 'pricing: expected an object, got "cheap"'],
    ['isTradable as string', specMarket({ metadata: { isTradable: 'yes' } }), 'metadata.isTradable: expected boolean, got "yes"'],
  ];
  it.each(cases)('rejects %s with a readable reason', (_name, payload, reason) => {
    const rejection = rejected(parseMarket(payload, { eventId: null }));
    expect(rejection.reason).toBe(reason);
    expect(rejection.payload).toBe(payload);
  });

  it('rejection carries the market id when readable', () => {
    expect(rejected(parseMarket(specMarket({ status: 'x' }), { eventId: null })).entityId).toBe('POLY-558936');
    expect(rejected(parseMarket(specMarket({ marketId: 12 }), { eventId: null })).entityId).toBeNull();
  });

  it('caps the list of problems', () => {
    const payload = { marketId: 'M' };
    const reason = rejected(parseMarket(payload, { eventId: null })).reason;
    expect(reason).toBe('status: required; result: required; openTime: required; closeTime: required');
    const many = rejected(parseMarket({}, { eventId: null })).reason;
    expect(many).toBe('marketId: required; status: required; result: required; openTime: required; closeTime: required');
    const six = rejected(parseMarket({ pricing: 1 }, { eventId: null })).reason;
    expect(six).toMatch(/ \(\+1 more\)$/);
  });
});
