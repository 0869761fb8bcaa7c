import { describe, expect, it } from 'vitest';

import type { Event, Market, Rejection } from '../../src/domain/types.js';
import { DRIFT, missingTag, unreadableTag } from '../../src/normalize/driftTags.js';
import { normalizeEvent } from '../../src/normalize/event.js';
import { eventSchema } from '../../src/wire/event.js';
import { recordShape } from '../../src/wire/recordShape.js';
import { LIVE_EVENT_DRIFT, liveEvent, specEvent, without } from '../wire/fixtures.js';

function normalize(
  payload: Record<string, unknown>,
  ctx: { provider?: string | null; markets?: Market[] | null; rejectedMarkets?: Rejection[] } = {},
): Event {
  return normalizeEvent(eventSchema.parse(payload), {
    shape: recordShape(payload, 'event'),
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
      shape: recordShape(payload, 'event'),
    });
  });

  it('a resolved winner is kept, beginAt null stays null', () => {
    const event = normalize(specEvent({ winner: 'POLY-558937', beginAt: null }));
    expect(event.winner).toBe('POLY-558937');
    expect(event.beginAtSec).toBeNull();
    expect(event.drift).toEqual([]);
  });

  it('provider: the wire value wins over the context, the context fills in otherwise', () => {
    expect(normalize(specEvent({ provider: 'kalshi' }), { provider: 'polymarket' }).provider).toBe('kalshi');
    expect(normalize(specEvent(), { provider: null }).provider).toBeNull();
    expect(normalize(specEvent(), { provider: 'kalshi' }).provider).toBe('kalshi');
  });

  it('passes the checked markets, rejections and shape through', () => {
    const rejection: Rejection = {
      entityId: 'M',
      reason: 'markets[0].openTime: expected Unix seconds, got "x"',
      payload: {},
      shape: recordShape({}, 'event'),
    };
    const shape = recordShape({ somethingElse: true }, 'event');
    const event = normalizeEvent(eventSchema.parse(specEvent()), {
      shape,
      provider: null,
      raw: {},
      markets: [],
      rejectedMarkets: [rejection],
    });
    expect(event.markets).toEqual([]);
    expect(event.rejectedMarkets).toEqual([rejection]);
    expect(event.shape).toBe(shape);
  });
});

describe("normalizeEvent: today's live shape", () => {
  it('maps every field, the removed ones null and tagged', () => {
    const payload = without(liveEvent(), 'markets');
    expect(normalize(payload, { provider: 'polymarket' })).toEqual({
      eventId: 'POLY-572993',
      provider: 'polymarket',
      series: 'sol-price',
      category: 'crypto',
      subcategory: '',
      title: 'SOL $500',
      subtitle: 'By Q2',
      imageUrl: 'https://example.test/sol.png',
      closeCondition: 'Closes when resolved',
      rulesPdf: '',
      multipleWinners: null,
      isActive: true,
      isLive: false,
      isTrending: null,
      isRecommended: null,
      winner: null,
      beginAtSec: 1_784_692_980.306,
      tvlUsd: null,
      volumeUsd: '26003599000000',
      markets: null,
      rejectedMarkets: [],
      drift: LIVE_EVENT_DRIFT,
      raw: payload,
      shape: recordShape(payload, 'event'),
    });
  });
});

describe('normalizeEvent: series', () => {
  it('metadata.series is used when the top-level series is absent', () => {
    const event = normalize({ ...without(specEvent(), 'series'), metadata: { title: 'T', series: 'from-meta' } });
    expect(event.series).toBe('from-meta');
    expect(event.drift).toEqual([DRIFT.seriesFromMetadata]);
  });

  it('metadata.series stands in for a null top-level series too', () => {
    const event = normalize(specEvent({ series: null, metadata: { series: 'from-meta' } }));
    expect(event.series).toBe('from-meta');
    expect(event.drift).toEqual([DRIFT.seriesFromMetadata]);
  });

  it('the top-level series wins over metadata.series (no drift)', () => {
    const event = normalize(specEvent({ metadata: { title: 'T', series: 'from-meta' } }));
    expect(event.series).toBe('weather-daily');
    expect(event.drift).toEqual([]);
  });

  it('an unreadable top-level series: metadata.series stands in, both tagged', () => {
    const event = normalize(specEvent({ series: 42, metadata: { series: 'from-meta' } }));
    expect(event.series).toBe('from-meta');
    expect(event.drift).toEqual([unreadableTag('series'), DRIFT.seriesFromMetadata]);
  });

  it('no series anywhere: null, tagged missing_series', () => {
    const event = normalize(without(specEvent(), 'series'));
    expect(event.series).toBeNull();
    expect(event.drift).toEqual([DRIFT.missingSeries]);
  });
});

describe('normalizeEvent: tolerated drift', () => {
  it.each([
    ['series', DRIFT.missingSeries, 'series'],
    ['winner', DRIFT.missingWinner, 'winner'],
    ['tvlDollars', DRIFT.missingTvl, 'tvlUsd'],
    ['volumeUsd', DRIFT.missingVolume, 'volumeUsd'],
    ['multipleWinners', missingTag('multipleWinners'), 'multipleWinners'],
    ['isTrending', missingTag('isTrending'), 'isTrending'],
    ['isRecommended', missingTag('isRecommended'), 'isRecommended'],
    ['isActive', missingTag('isActive'), 'isActive'],
    ['category', missingTag('category'), 'category'],
    ['subcategory', missingTag('subcategory'), 'subcategory'],
    ['closeCondition', missingTag('closeCondition'), 'closeCondition'],
    ['rulesPdf', missingTag('rulesPdf'), 'rulesPdf'],
  ] as const)('%s removed -> null, tagged %s', (key, tag, field) => {
    const event = normalize(without(specEvent(), key));
    expect(event.drift).toEqual([tag]);
    expect(event[field]).toBeNull();
  });

  it('series and tvl sent as null count as removed; a null winner is simply unresolved', () => {
    const event = normalize(specEvent({ series: null, winner: null, tvlDollars: null }));
    expect([event.series, event.winner, event.tvlUsd]).toEqual([null, null, null]);
    expect(event.drift).toEqual([DRIFT.missingSeries, DRIFT.missingTvl]);
  });

  it.each([
    ['isLive', 1, 'isLive'],
    ['multipleWinners', 'no', 'multipleWinners'],
    ['subcategory', ['a'], 'subcategory'],
    ['rulesPdf', {}, 'rulesPdf'],
    ['category', 3, 'category'],
    ['winner', false, 'winner'],
  ] as const)('%s of the wrong type (%j) reads as null, tagged unreadable', (key, value, field) => {
    const event = normalize(specEvent({ [key]: value }));
    expect(event[field]).toBeNull();
    expect(event.drift).toEqual([unreadableTag(key)]);
    expect((event.raw as Record<string, unknown>)[key]).toEqual(value);
  });

  it('amounts as JSON numbers: exact decimals, tagged', () => {
    const event = normalize(specEvent({ tvlDollars: 1234.5, volumeUsd: 1e-7 }));
    expect(event.tvlUsd).toBe('1234.5');
    expect(event.volumeUsd).toBe('0.0000001');
    expect(event.drift).toEqual([DRIFT.tvlAsNumber, DRIFT.volumeAsNumber]);
  });

  it('amounts beyond what the export writes exactly (DECIMAL(38,18)): null, tagged unreadable, raw kept', () => {
    const event = normalize(specEvent({ tvlDollars: '0.0000000000000000001', volumeUsd: 1.5e21 }));
    expect([event.tvlUsd, event.volumeUsd]).toEqual([null, null]);
    expect(event.drift).toEqual([DRIFT.volumeAsNumber, unreadableTag('tvlDollars'), unreadableTag('volumeUsd')]);
    expect((event.raw as Record<string, unknown>).volumeUsd).toBe(1.5e21);
  });

  it('formatted volume string: separators dropped, tagged volume_formatted; formatted tvl is spec', () => {
    const event = normalize(specEvent({ volumeUsd: '1,234,567.80', tvlDollars: '12,000' }));
    expect(event.volumeUsd).toBe('1234567.8');
    expect(event.tvlUsd).toBe('12000');
    expect(event.drift).toEqual([DRIFT.volumeFormatted]);
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
    expect(event.drift).toEqual([DRIFT.beginAtAsNumber]);
  });

  it.each([
    ['1784692980.306', 1_784_692_980.306, [DRIFT.beginAtFractional]],
    ['1748555553.385', 1_748_555_553.385, [DRIFT.beginAtFractional]],
    [1_784_692_980.5, 1_784_692_980.5, [DRIFT.beginAtAsNumber, DRIFT.beginAtFractional]],
    ['1784304000', 1_784_304_000, []],
  ] as const)('beginAt %j: kept as %s seconds (fractional part kept)', (wire, seconds, drift) => {
    const event = normalize(specEvent({ beginAt: wire }));
    expect(event.beginAtSec).toBe(seconds);
    expect(event.drift).toEqual(drift);
  });

  it('unknown provider value: kept and tagged, not rejected', () => {
    const event = normalize(specEvent({ provider: 'bisonfi' }));
    expect(event.provider).toBe('bisonfi');
    expect(event.drift).toEqual([DRIFT.providerUnknown]);
  });

  it('a provider of the wrong type: the context provider, tagged unreadable', () => {
    const event = normalize(specEvent({ provider: 7 }), { provider: 'kalshi' });
    expect(event.provider).toBe('kalshi');
    expect(event.drift).toEqual([unreadableTag('provider')]);
  });

  it.each(['climate & science', 'weather'])('category %j outside the documented list: stored as received, tagged', (category) => {
    const event = normalize(specEvent({ category }));
    expect(event.category).toBe(category);
    expect(event.drift).toEqual([DRIFT.categoryUnknown]);
  });

  it.each(['all', 'crypto', 'sports', 'politics', 'esports', 'culture', 'economics', 'tech'])(
    'documented category %j: no drift',
    (category) => {
      expect(normalize(specEvent({ category })).drift).toEqual([]);
    },
  );

  it('markets: null is "not included", tagged markets_null', () => {
    const event = normalize(specEvent({ markets: null }));
    expect(event.markets).toBeNull();
    expect(event.drift).toEqual([DRIFT.marketsNull]);
  });

  it('title/subtitle/imageUrl at the top level (no metadata): tagged flattened_event', () => {
    const event = normalize({ ...without(specEvent(), 'metadata'), title: 'T', subtitle: 'S', imageUrl: 'https://i.test/x.png' });
    expect([event.title, event.subtitle, event.imageUrl]).toEqual(['T', 'S', 'https://i.test/x.png']);
    expect(event.drift).toEqual([DRIFT.flattenedEvent]);
  });

  it('no metadata and no top-level copies: null text fields, no drift (metadata is optional)', () => {
    const event = normalize(without(specEvent(), 'metadata'));
    expect([event.title, event.subtitle, event.imageUrl]).toEqual([null, null, null]);
    expect(event.drift).toEqual([]);
  });

  it('metadata wins over top-level copies (no drift)', () => {
    const event = normalize(specEvent({ imageUrl: 'https://top.test/x.png' }));
    expect(event.imageUrl).toBe('https://example.test/rain.png');
    expect(event.drift).toEqual([]);
  });

  it('an unreadable metadata title: the top-level copy stands in, both tagged', () => {
    const event = normalize(specEvent({ metadata: { title: 5 }, title: 'Top' }));
    expect(event.title).toBe('Top');
    expect(event.drift).toEqual([unreadableTag('metadata.title'), DRIFT.flattenedEvent]);
  });
});
