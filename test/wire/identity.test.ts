import { describe, expect, it } from 'vitest';

import { parseEvent, parseMarket, parseMarketList, parseOrderBook } from '../../src/api/parse.js';
import { boundedPayload } from '../../src/wire/boundedPayload.js';
import { reasonKind } from '../../src/wire/issues.js';
import { LIMITS } from '../../src/wire/limits.js';
import { rejected } from '../helpers/checkedResult.js';
import { liveMarket, specEvent, specMarket, specOrderBook, specPagination } from './fixtures.js';

describe('a detail answer must be the record requested', () => {
  it('GET /markets/A answering market B is rejected under A, naming B', () => {
    const body = specMarket({ marketId: 'VICTIM' });
    const rejection = rejected(parseMarket(body, { eventId: null, requestedId: 'POLY-1' }));
    expect(rejection).toMatchObject({ entityId: 'POLY-1', reason: 'marketId: differs from the id requested, got "VICTIM"', payload: body });
    // One kind of reason, whatever the ids: a run's degradation message counts them together.
    expect(reasonKind(rejection.reason)).toBe('marketId: differs from the id requested');
    expect(parseMarket(specMarket(), { eventId: null, requestedId: 'POLY-558936' }).ok).toBe(true);
  });

  it('GET /events/A answering event B is rejected under A, its markets with it', () => {
    const rejection = rejected(parseEvent(specEvent({ eventId: 'VICTIM' }), { provider: null, requestedId: 'POLY-1' }));
    expect(rejection).toMatchObject({ entityId: 'POLY-1', reason: 'eventId: differs from the id requested, got "VICTIM"' });
    expect(parseEvent(specEvent(), { provider: null, requestedId: 'POLY-30615' }).ok).toBe(true);
  });

  it('an order book that names another market is rejected; one naming none, or the right one, is kept', () => {
    expect(rejected(parseOrderBook({ ...specOrderBook(), marketId: 'VICTIM' }, { marketId: 'M-1' }))).toMatchObject({
      entityId: 'M-1',
      reason: 'marketId: differs from the id requested, got "VICTIM"',
    });
    expect(parseOrderBook(specOrderBook(), { marketId: 'M-1' }).ok).toBe(true);
    expect(parseOrderBook({ ...specOrderBook(), marketId: 'M-1' }, { marketId: 'M-1' }).ok).toBe(true);
  });

  it('a market that names another event than the one it is listed under, or embedded in, is rejected alone', () => {
    const list = parseMarketList(
      { data: [liveMarket({ eventId: 'OTHER' }), liveMarket({ marketId: 'POLY-2' })], pagination: specPagination() },
      { eventId: 'POLY-30615' },
    );
    expect(rejected(list.markets[0]!)).toMatchObject({
      entityId: 'POLY-2470848',
      reason: 'eventId: differs from the event it was listed under, got "OTHER"',
    });
    expect(list.markets[1]!.ok).toBe(true);
    const event = parseEvent(
      specEvent({ markets: [specMarket({ eventId: 'OTHER' }), specMarket({ marketId: 'POLY-2', eventId: 'POLY-30615' })] }),
      { provider: null },
    );
    if (!event.ok) throw new Error(event.rejection.reason);
    expect(event.value.rejectedMarkets.map((r) => r.reason)).toEqual([
      'markets[0].eventId: differs from the event it was listed under, got "OTHER"',
    ]);
    expect(event.value.markets!.map((m) => m.marketId)).toEqual(['POLY-2']);
  });
});

describe('boundedPayload: what a rejected record may keep in memory', () => {
  it('keeps a payload within the bound as it is', () => {
    const payload = { a: [1, 'two', null, { b: true }], c: '\u0000' };
    expect(boundedPayload(payload)).toBe(payload);
  });

  it('cuts a larger one to the head of its JSON, exactly as JSON.stringify writes it', () => {
    const payload = { yes: Array.from({ length: 60_000 }, (_, i) => [i % 100, i + 0.5, 'é\ud800']), undef: undefined, n: NaN };
    const reduced = boundedPayload(payload) as { truncated: true; overChars: number; head: string };
    expect(reduced.truncated).toBe(true);
    expect(reduced.overChars).toBe(LIMITS.rejectedPayloadChars);
    expect(reduced.head).toHaveLength(LIMITS.rejectedPayloadChars / 4);
    expect(JSON.stringify(payload).slice(0, reduced.head.length)).toBe(reduced.head);
  });

  it('cuts one huge string without serializing all of it', () => {
    const reduced = boundedPayload({ title: 'x'.repeat(5_000_000) }) as { head: string };
    expect(reduced.head).toBe(`{"title":"${'x'.repeat(LIMITS.rejectedPayloadChars / 4 - 10)}`);
  });
});
