import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../src/api/parse.js';
import type { Checked, Event, Rejection } from '../../src/domain/types.js';
import { specEvent, specMarket, without } from './fixtures.js';

function ok(checked: Checked<Event>): Event {
  if (!checked.ok) throw new Error(`expected ok, got rejection: ${checked.rejection.reason}`);
  return checked.value;
}
function rejected(checked: Checked<Event>): Rejection {
  if (checked.ok) throw new Error('expected a rejection');
  return checked.rejection;
}

describe('parseEvent: spec-conformant event', () => {
  it('is accepted with its markets, all normalized', () => {
    const payload = specEvent();
    const event = ok(parseEvent(payload, { provider: 'polymarket' }));
    expect(event).toMatchObject({ eventId: 'POLY-30615', provider: 'polymarket', tvlUsd: '1234.56', volumeUsd: '98765.4321', beginAtSec: 1_700_000_000, drift: [] });
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

  it('without markets: markets null', () => {
    expect(ok(parseEvent(without(specEvent(), 'markets'), { provider: null })).markets).toBeNull();
  });

  it('unknown fields are ignored (and kept in raw)', () => {
    const event = ok(parseEvent(specEvent({ tags: ['a'], volume24hr: 5 }), { provider: 'polymarket' }));
    expect(event.drift).toEqual([]);
    expect((event.raw as Record<string, unknown>).tags).toEqual(['a']);
  });
});

describe('parseEvent: one bad embedded market', () => {
  it('is quarantined in rejectedMarkets with its id and a readable reason; the rest is kept', () => {
    const bad = specMarket({ marketId: 'POLY-BAD', status: 'halted' });
    const event = ok(parseEvent(specEvent({ markets: [specMarket(), bad, specMarket({ marketId: 'POLY-3' })] }), { provider: 'polymarket' }));
    expect(event.markets?.map((m) => m.marketId)).toEqual(['POLY-558936', 'POLY-3']);
    expect(event.rejectedMarkets).toEqual([
      { entityId: 'POLY-BAD', reason: 'markets[1].status: expected one of open|closed, got "halted"', payload: bad },
    ]);
  });

  it('a market that is not even an object is quarantined without an id', () => {
    const event = ok(parseEvent(specEvent({ markets: [42, specMarket()] }), { provider: null }));
    expect(event.markets).toHaveLength(1);
    expect(event.rejectedMarkets).toEqual([{ entityId: null, reason: 'markets[0]: expected an object, got 42', payload: 42 }]);
  });

  it('markets that is not an array rejects the event', () => {
    expect(rejected(parseEvent(specEvent({ markets: { a: 1 } }), { provider: null })).reason).toBe('markets: expected an array, got an object');
  });
});

describe('parseEvent: spec violations are rejected with readable reasons', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['missing eventId', without(specEvent(), 'eventId'), 'eventId: required'],
    ['empty eventId', specEvent({ eventId: '' }), 'eventId: must not be empty'],
    ['numeric eventId', specEvent({ eventId: 30615 }), 'eventId: expected string, got 30615'],
    ['category outside the enum', specEvent({ category: 'weather' }), 'category: expected one of all|crypto|sports|politics|esports|culture|economics|tech, got "weather"'],
    ['missing closeCondition', without(specEvent(), 'closeCondition'), 'closeCondition: required'],
    ['missing beginAt (required, nullable)', without(specEvent(), 'beginAt'), 'beginAt: required'],
    ['beginAt not seconds', specEvent({ beginAt: '2024-01-01' }), 'beginAt: expected Unix seconds as a string, or null, got "2024-01-01"'],
    ['beginAt fractional', specEvent({ beginAt: 1.5 }), 'beginAt: expected Unix seconds as a string, or null, got 1.5'],
    ['beginAt negative', specEvent({ beginAt: -1 }), 'beginAt: must be >= 0, got -1'],
    ['beginAt in milliseconds', specEvent({ beginAt: '1700000000000' }), 'beginAt: expected Unix seconds as a string, or null, got "1700000000000"'],
    ['isActive as string', specEvent({ isActive: 'true' }), 'isActive: expected boolean, got "true"'],
    ['missing volumeUsd', without(specEvent(), 'volumeUsd'), 'volumeUsd: required'],
    ['volumeUsd with currency sign', specEvent({ volumeUsd: '$1,234' }), 'volumeUsd: expected a non-negative decimal number, optionally with thousands separators, got "$1,234"'],
    ['negative tvl', specEvent({ tvlDollars: '-5' }), 'tvlDollars: expected a non-negative decimal number, optionally with thousands separators, got "-5"'],
    ['badly grouped tvl', specEvent({ tvlDollars: '12,34' }), 'tvlDollars: expected a non-negative decimal number, optionally with thousands separators, got "12,34"'],
    ['provider not a string', specEvent({ provider: 7 }), 'provider: expected string, got 7'],
    ['metadata title not a string', specEvent({ metadata: { title: 5 } }), 'metadata.title: expected string, got 5'],
  ];
  it.each(cases)('%s', (_name, payload, reason) => {
    const rejection = rejected(parseEvent(payload, { provider: 'polymarket' }));
    expect(rejection.reason).toBe(reason);
    expect(rejection.payload).toBe(payload);
  });

  it('the rejection carries the event id when it could be read', () => {
    expect(rejected(parseEvent(specEvent({ category: 'x' }), { provider: null })).entityId).toBe('POLY-30615');
    expect(rejected(parseEvent(without(specEvent(), 'eventId'), { provider: null })).entityId).toBeNull();
  });

  it('several problems are listed together', () => {
    const reason = rejected(parseEvent(without(specEvent({ isLive: 1, category: 'x' }), 'rulesPdf'), { provider: null })).reason;
    expect(reason).toBe('isLive: expected boolean, got 1; category: expected one of all|crypto|sports|politics|esports|culture|economics|tech, got "x"; rulesPdf: required');
  });

  it.each([null, [], 'event', 3])('a body that is not an object (%j) is a rejection, not a throw', (body) => {
    const rejection = rejected(parseEvent(body, { provider: null }));
    expect(rejection.reason).toMatch(/^expected an object, got /);
    expect(rejection.entityId).toBeNull();
  });
});
