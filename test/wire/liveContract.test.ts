import { describe, expect, it } from 'vitest';

import { parseEventList, parseMarket, parseOrderBook } from '../../src/api/parse.js';
import type { Event, Market } from '../../src/domain/types.js';
import { recordShape } from '../../src/wire/recordShape.js';
import { liveFixture } from '../helpers/replayServer.js';

/** Drift is measured against what the service sends today (wire/liveShapes.ts), not against the spec. */

const listing = () => structuredClone(liveFixture('events-page-polymarket.json')) as { data: Record<string, unknown>[] };
const events = (body: unknown): Event[] =>
  parseEventList(body, { provider: 'polymarket' }).events.map((e) => {
    if (!e.ok) throw new Error(e.rejection.reason);
    return e.value;
  });
const marketsOf = (list: Event[]): Market[] => list.flatMap((e) => e.markets ?? []);
const firstMarket = () => (listing().data[0]!.markets as Record<string, unknown>[])[0]!;

describe('the live contract', () => {
  it('finds no change in any record of the recorded listing, events and markets alike', () => {
    const list = events(listing());
    expect(list.length).toBeGreaterThan(0);
    expect(marketsOf(list).length).toBeGreaterThan(0);
    for (const record of [...list, ...marketsOf(list)]) expect(record.shape.changes).toEqual([]);
    // Every market is one shape, and every event: their nulls differ, their shape does not.
    expect(new Set(marketsOf(list).map((m) => m.shape.fingerprint)).size).toBe(1);
    expect(new Set(list.map((e) => e.shape.fingerprint)).size).toBe(1);
  });

  it('finds none in the live market detail and order books', () => {
    const market = parseMarket(liveFixture('market-detail-live.json'), { eventId: null });
    expect(market.ok && market.value.shape.changes).toEqual([]);
    for (const name of ['orderbook-96-levels.json', 'orderbook-null.json']) {
      const book = parseOrderBook(liveFixture(name), { marketId: 'POLY-1' });
      expect(book.ok && book.value.shape.changes).toEqual([]);
    }
  });

  it('treats a null as no change: a field that is sometimes null is one shape', () => {
    const withValues = firstMarket();
    const nulled = { ...withValues, imageUrl: null, resolveAt: null, sportsLine: null, sportsMarketType: null, pricing: null };
    const a = recordShape(withValues, 'market');
    const b = recordShape(nulled, 'market');
    expect(b.changes).toEqual([]);
    expect(b.fingerprint).toBe(a.fingerprint);
  });

  it('names each planted change: a new field, a field gone, a changed type, a new status value', () => {
    const m = firstMarket();
    // A field every market shape of today sends (a gx market may leave out rulesSecondary).
    const { rulesPrimary: _gone, ...withoutRules } = m;
    expect(recordShape({ ...m, feeBps: 12 }, 'market').changes).toEqual([{ kind: 'new_field', path: 'feeBps', detail: 'number' }]);
    expect(recordShape(withoutRules, 'market').changes).toEqual([{ kind: 'field_gone', path: 'rulesPrimary', detail: 'string' }]);
    expect(recordShape({ ...m, status: 1 }, 'market').changes).toEqual([
      { kind: 'changed_type', path: 'status', detail: 'string -> number' },
    ]);
    expect(recordShape({ ...m, status: 'suspended' }, 'market').changes).toEqual([
      { kind: 'new_value', path: 'status', detail: '"suspended"' },
    ]);
    // A new object is one change, not one per key below it; a changed nested type names its path.
    expect(recordShape({ ...m, fees: { maker: 0, taker: 1 } }, 'market').changes).toEqual([
      { kind: 'new_field', path: 'fees', detail: 'object' },
    ]);
    const pricing = { ...(m.pricing as object), volume: '26003599' };
    expect(recordShape({ ...m, pricing }, 'market').changes).toEqual([
      { kind: 'changed_type', path: 'pricing.volume', detail: 'number -> string' },
    ]);
  });

  it('still reads spec-era and 2026-02 records, and shows them as drift from today', () => {
    const spec = parseMarket(liveFixture('market-detail-2026-02.json'), { eventId: null });
    if (!spec.ok) throw new Error(spec.rejection.reason);
    expect(spec.value.status).not.toBeNull();
    const kinds = new Set(spec.value.shape.changes.map((c) => c.kind));
    expect(kinds).toEqual(new Set(['field_gone', 'new_field', 'new_value']));
    expect(spec.value.shape.changes).toContainEqual({ kind: 'field_gone', path: 'pricing', detail: 'object' });
  });
});
