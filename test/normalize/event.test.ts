import { describe, expect, it } from 'vitest';
import { eventSchema } from '../../src/wire/event.js';
import type { Event, Market, Rejection } from '../../src/domain/types.js';
import { normalizeEvent } from '../../src/normalize/event.js';
import { specEvent, without } from '../wire/fixtures.js';

function normalize(
  payload: Record<string, unknown>,
  ctx: { provider?: string | null; markets?: Market[] | null; rejectedMarkets?: Rejection[] } = {},
): Event {
  return normalizeEvent(eventSchema.parse(payload), {
    provider: ctx.provider === undefined ? 'polymarket' : ctx.provider,
    raw: payload,
    markets: ctx.markets ?? null,
    rejectedMarkets: ctx.rejectedMarkets ?? [],
  });
}

describe('normalizeEvent: spec shape', () => {
  it('maps every field exactly', () => {
    const payload = without(specEvent(), 'markets');
    expect(normalize(payload)).toEqual({
      eventId: 'POLY-30615',
      provider: 'polymarket',
      series: 'weather-daily',
      category: 'culture',
      subcategory: 'weather',
      title: 'Rain in Paris',
      subtitle: 'Daily weather',
      imageUrl: 'https://example.test/rain.png',
      closeCondition: 'Closes at midnight UTC',
      rulesPdf: 'https://example.test/rules.pdf',
      multipleWinners: false,
      isActive: true,
      isLive: false,
      isTrending: true,
      isRecommended: false,
      winner: null,
      beginAtSec: 1_700_000_000,
      tvlUsd: '1234.56',
      volumeUsd: '98765.4321',
      markets: null,
      rejectedMarkets: [],
      drift: [],
      raw: payload,
    });
  });

  it('a resolved winner is kept, beginAt null stays null', () => {
    const event = normalize(specEvent({ winner: 'POLY-558937', beginAt: null }));
    expect(event.winner).toBe('POLY-558937');
    expect(event.beginAtSec).toBeNull();
  });

  it('isTrending/isRecommended absent: null, not drift', () => {
    const event = normalize(without(specEvent(), 'isTrending', 'isRecommended', 'metadata'));
    expect([event.isTrending, event.isRecommended, event.title, event.imageUrl]).toEqual([null, null, null, null]);
    expect(event.drift).toEqual([]);
  });

  it('provider: the wire value wins over the context, the context fills in otherwise', () => {
    expect(normalize(specEvent({ provider: 'kalshi' }), { provider: 'polymarket' }).provider).toBe('kalshi');
    expect(normalize(specEvent(), { provider: null }).provider).toBeNull();
    expect(normalize(specEvent(), { provider: 'kalshi' }).provider).toBe('kalshi');
  });

  it('passes the checked markets and rejections through', () => {
    const rejection: Rejection = { entityId: 'M', reason: 'markets[0].status: required', payload: {} };
    const event = normalize(specEvent(), { markets: [], rejectedMarkets: [rejection] });
    expect(event.markets).toEqual([]);
    expect(event.rejectedMarkets).toEqual([rejection]);
  });
});

describe('normalizeEvent: tolerated drift', () => {
  it.each([
    ['series', 'missing_series'],
    ['winner', 'missing_winner'],
    ['tvlDollars', 'missing_tvl'],
  ])('%s removed -> null, tagged %s', (key, tag) => {
    const event = normalize(without(specEvent(), key));
    expect(event.drift).toEqual([tag]);
    const field = { series: 'series', winner: 'winner', tvlDollars: 'tvlUsd' }[key] as keyof Event;
    expect(event[field]).toBeNull();
  });

  it('series/winner/tvl sent as null count as removed', () => {
    const event = normalize(specEvent({ series: null, winner: null, tvlDollars: null }));
    expect([event.series, event.winner, event.tvlUsd]).toEqual([null, null, null]);
    expect(event.drift).toEqual(['missing_series', 'missing_winner', 'missing_tvl']);
  });

  it('amounts as JSON numbers: exact decimals, tagged', () => {
    const event = normalize(specEvent({ tvlDollars: 1234.5, volumeUsd: 1e-7 }));
    expect(event.tvlUsd).toBe('1234.5');
    expect(event.volumeUsd).toBe('0.0000001');
    expect(event.drift).toEqual(['tvl_as_number', 'volume_as_number']);
  });

  it('formatted volume string: separators dropped, tagged volume_formatted; formatted tvl is spec', () => {
    const event = normalize(specEvent({ volumeUsd: '1,234,567.80', tvlDollars: '12,000' }));
    expect(event.volumeUsd).toBe('1234567.8');
    expect(event.tvlUsd).toBe('12000');
    expect(event.drift).toEqual(['volume_formatted']);
  });

  it('plain strings stay exact (no float round trip)', () => {
    const event = normalize(specEvent({ volumeUsd: '650000', tvlDollars: '0.65' }));
    expect([event.volumeUsd, event.tvlUsd]).toEqual(['650000', '0.65']);
    const big = normalize(specEvent({ volumeUsd: '12345678901234567890.123456789' }));
    expect(big.volumeUsd).toBe('12345678901234567890.123456789');
  });

  it('beginAt as a number: tagged begin_at_as_number', () => {
    const event = normalize(specEvent({ beginAt: 1_700_000_123 }));
    expect(event.beginAtSec).toBe(1_700_000_123);
    expect(event.drift).toEqual(['begin_at_as_number']);
  });

  it('unknown provider value: kept and tagged, not rejected', () => {
    const event = normalize(specEvent({ provider: 'bisonfi' }));
    expect(event.provider).toBe('bisonfi');
    expect(event.drift).toEqual(['provider_unknown']);
  });

  it('markets: null is "not included", tagged markets_null', () => {
    const event = normalize(specEvent({ markets: null }));
    expect(event.markets).toBeNull();
    expect(event.drift).toEqual(['markets_null']);
  });

  it('title/subtitle/imageUrl at the top level (no metadata): tagged flattened_event', () => {
    const event = normalize({ ...without(specEvent(), 'metadata'), title: 'T', subtitle: 'S', imageUrl: 'https://i.test/x.png' });
    expect([event.title, event.subtitle, event.imageUrl]).toEqual(['T', 'S', 'https://i.test/x.png']);
    expect(event.drift).toEqual(['flattened_event']);
  });

  it('metadata wins over top-level copies (no drift)', () => {
    const event = normalize(specEvent({ imageUrl: 'https://top.test/x.png' }));
    expect(event.imageUrl).toBe('https://example.test/rain.png');
    expect(event.drift).toEqual([]);
  });
});
