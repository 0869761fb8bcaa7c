import { describe, expect, it } from 'vitest';

import { parseEvent } from '../../src/api/parse.js';
import type { Event } from '../../src/domain/types.js';
import { DRIFT, missingTag, unreadableTag } from '../../src/normalize/driftTags.js';
import { recordShape } from '../../src/wire/recordShape.js';
import { ok, rejected } from '../helpers/checkedResult.js';
import { LIVE_EVENT_DRIFT, liveEvent, liveMarket, specEvent, specMarket, without } from './fixtures.js';

describe('parseEvent: spec-conformant event', () => {
  it('is accepted with its markets, all normalized', () => {
    const payload = specEvent();
    const event = ok(parseEvent(payload, { provider: 'polymarket' }));
    expect(event).toMatchObject({
      eventId: 'POLY-30615',
      provider: 'polymarket',
      tvlUsd: '1234.56',
      volumeUsd: '98765.4321',
      beginAtSec: 1_700_000_000,
      drift: [],
    });
    expect(event.markets?.map((m) => [m.marketId, m.eventId, m.status, m.result, m.settlementTimeSec])).toEqual([
      ['POLY-558936', 'POLY-30615', 'open', null, null],
      ['POLY-558937', 'POLY-30615', 'closed', 'no', 1_750_000_000],
    ]);
    expect(event.rejectedMarkets).toEqual([]);
  });

  it('raw is the event without its markets array; each market keeps its own raw', () => {
    const payload = specEvent();
    const event = ok(parseEvent(payload, { provider: 'polymarket' }));
    expect(event.raw).toEqual(without(payload, 'markets'));
    expect(Object.hasOwn(event.raw as object, 'markets')).toBe(false);
    expect(event.markets?.[0]?.raw).toBe((payload.markets as unknown[])[0]);
    // The caller's payload is left untouched.
    expect(Array.isArray(payload.markets)).toBe(true);
  });

  it('the shape is that of raw (without markets); each market has its own', () => {
    const payload = specEvent();
    const event = ok(parseEvent(payload, { provider: 'polymarket' }));
    expect(event.shape).toEqual(recordShape(without(payload, 'markets'), 'event'));
    expect(event.shape.paths.filter((p) => p.startsWith('markets'))).toEqual([]);
    expect(event.markets?.[0]?.shape).toEqual(recordShape((payload.markets as unknown[])[0], 'market'));
  });

  it('without markets: markets null', () => {
    expect(ok(parseEvent(without(specEvent(), 'markets'), { provider: null })).markets).toBeNull();
  });

  it('unknown fields are ignored (and kept in raw)', () => {
    const event = ok(parseEvent(specEvent({ tags: ['a'], volume24hr: 5 }), { provider: 'polymarket' }));
    expect(event.drift).toEqual([]);
    expect((event.raw as Record<string, unknown>).tags).toEqual(['a']);
  });
});

describe("parseEvent: today's live shape", () => {
  it('is accepted: series from metadata, fractional beginAt kept, removed fields null and tagged', () => {
    const event = ok(parseEvent(liveEvent(), { provider: 'polymarket' }));
    expect(event).toMatchObject({
      eventId: 'POLY-572993',
      series: 'sol-price',
      category: 'crypto',
      subcategory: '',
      title: 'SOL $500',
      rulesPdf: '',
      winner: null,
      multipleWinners: null,
      isTrending: null,
      isRecommended: null,
      tvlUsd: null,
      volumeUsd: '26003599000000',
      beginAtSec: 1_784_692_980.306,
    });
    expect(event.drift).toEqual(LIVE_EVENT_DRIFT);
    expect(event.markets?.map((m) => [m.marketId, m.eventId, m.status])).toEqual([['POLY-2470848', 'POLY-572993', 'open']]);
    expect(event.rejectedMarkets).toEqual([]);
  });

  it('category "climate & science" (outside the documented list) is stored as received', () => {
    const event = ok(parseEvent(liveEvent({ category: 'climate & science' }), { provider: 'polymarket' }));
    expect(event.category).toBe('climate & science');
    expect(event.drift).toContain(DRIFT.categoryUnknown);
  });

  it('provider "bisonfi" is stored as received and tagged', () => {
    const event = ok(parseEvent(specEvent({ provider: 'bisonfi' }), { provider: 'polymarket' }));
    expect(event.provider).toBe('bisonfi');
    expect(event.drift).toEqual([DRIFT.providerUnknown]);
  });
});

describe('parseEvent: one bad embedded market', () => {
  it('is quarantined in rejectedMarkets with its id, a readable reason and its shape; the rest is kept', () => {
    const bad = specMarket({ marketId: 'POLY-BAD', settlementTime: 'soon' });
    const event = ok(
      parseEvent(specEvent({ markets: [specMarket(), bad, specMarket({ marketId: 'POLY-3' })] }), { provider: 'polymarket' }),
    );
    expect(event.markets?.map((m) => m.marketId)).toEqual(['POLY-558936', 'POLY-3']);
    expect(event.rejectedMarkets).toEqual([
      {
        entityId: 'POLY-BAD',
        reason: 'markets[1].settlementTime: expected Unix seconds, got "soon"',
        payload: bad,
        shape: recordShape(bad, 'market'),
      },
    ]);
  });

  it('a market with an unknown status is kept, not quarantined', () => {
    const halted = liveMarket({ marketId: 'POLY-HALTED', status: 'halted' });
    const event = ok(parseEvent(liveEvent({ markets: [halted, liveMarket()] }), { provider: 'polymarket' }));
    expect(event.rejectedMarkets).toEqual([]);
    expect(event.markets?.map((m) => [m.marketId, m.status])).toEqual([
      ['POLY-HALTED', 'halted'],
      ['POLY-2470848', 'open'],
    ]);
    expect(event.markets?.[0]?.drift).toContain(DRIFT.statusUnknown);
  });

  it('a market that is not even an object is quarantined without an id', () => {
    const event = ok(parseEvent(specEvent({ markets: [42, specMarket()] }), { provider: null }));
    expect(event.markets).toHaveLength(1);
    expect(event.rejectedMarkets).toEqual([
      { entityId: null, reason: 'markets[0]: expected an object, got 42', payload: 42, shape: recordShape(42, 'market') },
    ]);
  });

  it('markets that is not an array rejects the event', () => {
    expect(rejected(parseEvent(specEvent({ markets: { a: 1 } }), { provider: null })).reason).toBe(
      'markets: expected an array, got an object',
    );
  });
});

describe('parseEvent: what still rejects an event', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['missing eventId', without(specEvent(), 'eventId'), 'eventId: required'],
    ['empty eventId', specEvent({ eventId: '' }), 'eventId: must not be empty'],
    ['numeric eventId', specEvent({ eventId: 30615 }), 'eventId: expected string, got 30615'],
  ];
  it.each(cases)('%s', (_name, payload, reason) => {
    const rejection = rejected(parseEvent(payload, { provider: 'polymarket' }));
    expect(rejection.reason).toBe(reason);
    expect(rejection.payload).toBe(payload);
    expect(rejection.shape).toEqual(recordShape(without(payload, 'markets'), 'event'));
  });

  it('the rejection carries the event id when it could be read', () => {
    expect(rejected(parseEvent({ ...specEvent(), title: 'a\u0000b' }, { provider: null })).entityId).toBe('POLY-30615');
    expect(rejected(parseEvent(without(specEvent(), 'eventId'), { provider: null })).entityId).toBeNull();
  });

  it.each([null, [], 'event', 3])('a body that is not an object (%j) is a rejection, not a throw', (body) => {
    const rejection = rejected(parseEvent(body, { provider: null }));
    expect(rejection.reason).toMatch(/^expected an object, got /);
    expect(rejection.entityId).toBeNull();
    expect(rejection.shape).toEqual(recordShape(body, 'event'));
  });
});

describe('parseEvent: deviations that are now accepted and tagged', () => {
  const cases: [string, Record<string, unknown>, Partial<Event>, string][] = [
    ['category outside the documented list', specEvent({ category: 'weather' }), { category: 'weather' }, DRIFT.categoryUnknown],
    ['missing closeCondition', without(specEvent(), 'closeCondition'), { closeCondition: null }, missingTag('closeCondition')],
    ['missing category', without(specEvent(), 'category'), { category: null }, missingTag('category')],
    ['missing volumeUsd', without(specEvent(), 'volumeUsd'), { volumeUsd: null }, DRIFT.missingVolume],
    ['missing series', without(specEvent(), 'series'), { series: null }, DRIFT.missingSeries],
    ['missing winner', without(specEvent(), 'winner'), { winner: null }, DRIFT.missingWinner],
    ['missing tvlDollars', without(specEvent(), 'tvlDollars'), { tvlUsd: null }, DRIFT.missingTvl],
    ['beginAt fractional string', specEvent({ beginAt: '1784692980.306' }), { beginAtSec: 1_784_692_980.306 }, DRIFT.beginAtFractional],
    ['isActive as string', specEvent({ isActive: 'true' }), { isActive: null }, unreadableTag('isActive')],
    ['provider not a string (context provider used)', specEvent({ provider: 7 }), { provider: 'polymarket' }, unreadableTag('provider')],
    ['metadata title not a string', specEvent({ metadata: { title: 5 } }), { title: null }, unreadableTag('metadata.title')],
    ['metadata not an object', specEvent({ metadata: 'm' }), { title: null, imageUrl: null }, unreadableTag('metadata')],
    // Amounts and times that cannot be read: none is the event's state, so the event and its markets stay.
    ['beginAt not seconds', specEvent({ beginAt: '2024-01-01' }), { beginAtSec: null }, unreadableTag('beginAt')],
    ['beginAt as a boolean', specEvent({ beginAt: true }), { beginAtSec: null }, unreadableTag('beginAt')],
    ['beginAt negative', specEvent({ beginAt: -1 }), { beginAtSec: null }, unreadableTag('beginAt')],
    ['beginAt in milliseconds', specEvent({ beginAt: '1700000000000' }), { beginAtSec: null }, unreadableTag('beginAt')],
    ['beginAt past year 9999', specEvent({ beginAt: '999999999999' }), { beginAtSec: null }, unreadableTag('beginAt')],
    ['volumeUsd with currency sign', specEvent({ volumeUsd: '$1,234' }), { volumeUsd: null }, unreadableTag('volumeUsd')],
    ['volumeUsd empty', specEvent({ volumeUsd: '' }), { volumeUsd: null }, unreadableTag('volumeUsd')],
    ['volumeUsd as a boolean', specEvent({ volumeUsd: true }), { volumeUsd: null }, unreadableTag('volumeUsd')],
    ['negative tvl number', specEvent({ tvlDollars: -5 }), { tvlUsd: null }, unreadableTag('tvlDollars')],
    ['badly grouped tvl', specEvent({ tvlDollars: '12,34' }), { tvlUsd: null }, unreadableTag('tvlDollars')],
  ];
  it.each(cases)('%s', (_name, payload, fields, tag) => {
    const event = ok(parseEvent(payload, { provider: 'polymarket' }));
    expect(event).toMatchObject(fields);
    expect(event.drift).toEqual([tag]);
    expect(event.raw).toEqual(without(payload, 'markets'));
  });

  it('beginAt as a fractional number: kept fractional, both drifts tagged', () => {
    const event = ok(parseEvent(specEvent({ beginAt: 1.5 }), { provider: null }));
    expect(event.beginAtSec).toBe(1.5);
    expect(event.drift).toEqual([DRIFT.beginAtAsNumber, DRIFT.beginAtFractional]);
  });

  it('missing beginAt reads as null', () => {
    const event = ok(parseEvent(without(specEvent(), 'beginAt'), { provider: null }));
    expect(event.beginAtSec).toBeNull();
  });

  it('several tolerated deviations at once are all tagged', () => {
    const event = ok(parseEvent(without(specEvent({ isLive: 1, category: 'x' }), 'rulesPdf'), { provider: null }));
    expect(event).toMatchObject({ isLive: null, category: 'x', rulesPdf: null });
    expect([...event.drift].sort()).toEqual([DRIFT.categoryUnknown, missingTag('rulesPdf'), unreadableTag('isLive')].sort());
  });

  it('an event with nothing but its id is accepted, every missing spec field tagged', () => {
    const event = ok(parseEvent({ eventId: 'X' }, { provider: 'kalshi' }));
    expect(event).toMatchObject({ eventId: 'X', provider: 'kalshi', series: null, category: null, volumeUsd: null, markets: null });
    expect([...event.drift].sort()).toEqual(
      [
        DRIFT.missingSeries,
        DRIFT.missingWinner,
        DRIFT.missingTvl,
        DRIFT.missingVolume,
        DRIFT.missingBeginAt,
        ...[
          'category',
          'subcategory',
          'closeCondition',
          'rulesPdf',
          'multipleWinners',
          'isActive',
          'isLive',
          'isTrending',
          'isRecommended',
        ].map(missingTag),
      ].sort(),
    );
  });
});
