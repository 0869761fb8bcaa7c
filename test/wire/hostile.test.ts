import { afterEach, describe, expect, it } from 'vitest';

import { parseEvent, parseEventList, parseMarket, parseOrderBook, ResponseShapeError } from '../../src/api/parse.js';
import { DRIFT, unreadableTag } from '../../src/normalize/driftTags.js';
import { LIMITS } from '../../src/wire/limits.js';
import { ok as accepted, rejected } from '../helpers/checkedResult.js';
import { specEvent, specMarket, specPagination, without } from './fixtures.js';

/** Builds a JSON text by hand so that it can hold what JSON.stringify would never write. */
function fromJson(text: string): unknown {
  return JSON.parse(text);
}

describe('non-finite and out-of-range numbers', () => {
  it.each(['NaN', 'Infinity', '-Infinity', '1e400', '1e5', '0x10', '', '1.', '.5', '+1', '1_000'])(
    'pricing string %j rejects the market',
    (value) => {
      const rejection = rejected(parseMarket(specMarket({ pricing: { buyYesPriceUsd: value } }), { eventId: null }));
      expect(rejection.reason).toBe(`pricing.buyYesPriceUsd: expected a decimal number, got ${JSON.stringify(value)}`);
      expect(rejection.entityId).toBe('POLY-558936');
    },
  );

  it('a signed price string ("-5") is a number: out of range, so the pricing is quarantined and the market kept', () => {
    const market = accepted(parseMarket(specMarket({ pricing: { buyYesPriceUsd: '-5' } }), { eventId: null }));
    expect(market.pricing).toBeNull();
    expect(market.pricingRejection?.reason).toBe('pricing.buyYesPriceUsd: must be within 0..1000000 micro-USD, got -5');
    expect(market.drift).toContain(DRIFT.pricingOutOfRange);
  });

  it('1e400 as a JSON number becomes Infinity in JSON.parse and is rejected', () => {
    const payload = fromJson(JSON.stringify(specMarket()).replace('"buyYesPriceUsd":650000', '"buyYesPriceUsd":1e400'));
    expect(rejected(parseMarket(payload, { eventId: null })).reason).toBe(
      'pricing.buyYesPriceUsd: expected a number or decimal string, got Infinity',
    );
  });

  it('1e300 as a JSON number is a finite number out of range: pricing quarantined, market kept', () => {
    const payload = fromJson(JSON.stringify(specMarket()).replace('"buyYesPriceUsd":650000', '"buyYesPriceUsd":1e300'));
    const market = accepted(parseMarket(payload, { eventId: null }));
    expect(market.pricing).toBeNull();
    expect(market.pricingRejection).toMatchObject({
      entityId: 'POLY-558936',
      reason: 'pricing.buyYesPriceUsd: must be within 0..1000000 micro-USD, got 1e+300',
    });
  });

  it.each(['abc', 'NaN', '1e400', true])('a settlement time sent as %j rejects the market', (value) => {
    expect(rejected(parseMarket(specMarket({ settlementTime: value }), { eventId: null })).reason).toBe(
      `settlementTime: expected Unix seconds, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
    );
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    '%s in an order book: the level is dropped, the book kept',
    (value) => {
      for (const level of [
        [value, 1],
        [50, value],
      ]) {
        const book = accepted(parseOrderBook({ yes: [level, [40, 2]], no: [] }, { marketId: 'M' }));
        expect(book.yes).toEqual([{ priceCents: '40', size: '2' }]);
        expect(book.drift).toEqual([DRIFT.orderBookLevelDropped]);
      }
    },
  );

  it('NaN/Infinity strings for event amounts and timestamps are never read as numbers: stored as null, tagged', () => {
    for (const [field, value, column] of [
      ['volumeUsd', 'NaN', 'volumeUsd'],
      ['tvlDollars', 'Infinity', 'tvlUsd'],
      ['beginAt', '1e9', 'beginAtSec'],
    ] as const) {
      const checked = parseEvent(specEvent({ [field]: value }), { provider: null });
      if (!checked.ok) throw new Error(`expected the event kept, got ${checked.rejection.reason}`);
      expect(checked.value[column]).toBeNull();
      expect(checked.value.drift).toContain(unreadableTag(field));
    }
  });

  it('an absurdly long numeric string is rejected', () => {
    expect(rejected(parseMarket(specMarket({ pricing: { volume: '9'.repeat(101) } }), { eventId: null })).reason).toBe(
      'pricing.volume: too long: 101 characters (max 100)',
    );
  });
});

describe('NUL characters', () => {
  it('in a known field: the record is rejected', () => {
    const payload = fromJson(JSON.stringify(specMarket()).replace('Will it rain?', 'Will it\\u0000 rain?'));
    const rejection = rejected(parseMarket(payload, { eventId: null }));
    expect(rejection).toMatchObject({ entityId: 'POLY-558936', reason: 'metadata.title: contains a NUL character' });
  });

  it('in a field no schema declares (it would still reach raw jsonb)', () => {
    const payload = specEvent({ tags: ['ok', 'bad\u0000'] });
    expect(rejected(parseEvent(payload, { provider: null })).reason).toBe('tags[1]: contains a NUL character');
  });

  it('in a key', () => {
    const payload = fromJson('{"eventId":"E","we\\u0000ird":1}');
    expect(rejected(parseEvent(payload, { provider: null })).reason).toBe('["we\\u0000ird"]: key contains a NUL character');
  });

  it('in an id: the rejection has no entityId and the reason holds no NUL', () => {
    const rejection = rejected(parseEvent(specEvent({ eventId: 'POLY-\u00001' }), { provider: null }));
    expect(rejection.entityId).toBeNull();
    expect(rejection.reason).toBe('eventId: contains a NUL character');
  });

  it('in one embedded market: only that market is quarantined', () => {
    const event = parseEvent(specEvent({ markets: [specMarket({ subtitle: 'x\u0000' }), specMarket({ marketId: 'POLY-2' })] }), {
      provider: null,
    });
    expect(event.ok).toBe(true);
    if (!event.ok) return;
    expect(event.value.markets?.map((m) => m.marketId)).toEqual(['POLY-2']);
    expect(event.value.rejectedMarkets.map((r) => [r.entityId, r.reason])).toEqual([
      ['POLY-558936', 'markets[0].subtitle: contains a NUL character'],
    ]);
  });

  it('an unpaired surrogate (not storable as UTF-8 / jsonb) is rejected; paired ones are fine', () => {
    const payload = fromJson(JSON.stringify(specMarket()).replace('Tomorrow', 'Tomorrow \\ud800'));
    expect(rejected(parseMarket(payload, { eventId: null })).reason).toBe('metadata.subtitle: contains an unpaired UTF-16 surrogate');
    const emoji = parseMarket(specMarket({ subtitle: 'sunny \u{1F600}' }), { eventId: null });
    expect(emoji.ok).toBe(true);
  });

  it('no reason ever contains a raw NUL', () => {
    const reasons = [
      rejected(parseMarket(specMarket({ status: 'x\u0000y'.repeat(3) }), { eventId: null })).reason,
      rejected(parseMarket({ ['k\u0000']: 1 }, { eventId: null })).reason,
    ];
    for (const reason of reasons) expect(reason).not.toContain('\u0000');
  });
});

describe('prototype pollution', () => {
  afterEach(() => {
    // Clean up in case a test failed by polluting.
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  const probe = (): unknown => ({}) as Record<string, unknown>;

  it('__proto__ keys in an event, its metadata and its markets pollute nothing', () => {
    const text = JSON.stringify(specEvent())
      .replace('{"eventId":"POLY-30615"', '{"__proto__":{"polluted":"event"},"eventId":"POLY-30615"')
      .replace('"metadata":{', '"metadata":{"__proto__":{"polluted":"meta"},')
      .replace('"pricing":{', '"pricing":{"__proto__":{"polluted":"pricing"},');
    const payload = fromJson(text);
    const checked = parseEvent(payload, { provider: null });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    const event = checked.value;
    expect((probe() as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect((event as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect((event.markets?.[0]?.pricing as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(event.markets?.[0]?.pricing)).toBe(Object.prototype);
    // raw (a copy without markets) keeps __proto__ as a plain own key, not as its prototype.
    expect(Object.getPrototypeOf(event.raw)).toBe(Object.prototype);
    expect(Object.hasOwn(event.raw as object, '__proto__')).toBe(true);
    expect((event.raw as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(event.raw)).toContain('"__proto__":{"polluted":"event"}');
  });

  it('__proto__ in an envelope, a market and a book', () => {
    const list = fromJson(
      `{"__proto__":{"polluted":1},"data":[],"pagination":{"__proto__":{"hasNext":true},"start":0,"end":0,"total":0,"hasNext":false}}`,
    );
    expect(parseEventList(list, { provider: 'polymarket' }).pagination).toEqual({ start: 0, end: 0, total: 0, hasNext: false });
    const market = parseMarket(fromJson(`{"__proto__":{"status":"open"},${JSON.stringify(specMarket()).slice(1)}`), { eventId: null });
    expect(market.ok && Object.getPrototypeOf(market.value)).toBe(Object.prototype);
    const book = parseOrderBook(fromJson('{"__proto__":{"yes":[[1,1]]},"yes":[],"no":[]}'), { marketId: 'M' });
    expect(book.ok && book.value.yes).toEqual([]);
    expect((probe() as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a __proto__ that would supply a missing field does not', () => {
    const payload = fromJson(`{"__proto__":{"closeTime":1},${JSON.stringify(without(specMarket(), 'closeTime', 'metadata')).slice(1)}`);
    const market = accepted(parseMarket(payload, { eventId: null }));
    expect(market.closeTimeSec).toBeNull();
    expect(market.drift).toContain(DRIFT.missingCloseTime);
  });

  it('a __proto__ that would supply an unreadable price does not reject the market', () => {
    const payload = fromJson(
      `{"__proto__":{"pricing":{"buyYesPriceUsd":"abc"}},${JSON.stringify(without(specMarket(), 'pricing')).slice(1)}`,
    );
    const market = accepted(parseMarket(payload, { eventId: null }));
    expect(market.pricing).toBeNull();
    expect(market.pricingRejection).toBeNull();
  });

  it('constructor.prototype payloads are inert', () => {
    const payload = fromJson(`{"constructor":{"prototype":{"polluted":true}},${JSON.stringify(specMarket()).slice(1)}`);
    expect(parseMarket(payload, { eventId: null }).ok).toBe(true);
    expect((probe() as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('absurd sizes', () => {
  it('a 1e6-level order book is rejected without throwing and without walking its levels', () => {
    const levels = Array.from({ length: 1_000_000 }, (_, i) => [100 - i / 10_000, 1]);
    // Counts the levels read: a deterministic measure of the work, where a time bound is flaky.
    let reads = 0;
    const counted = new Proxy(levels, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const rejection = rejected(parseOrderBook({ yes: counted, no: [] }, { marketId: 'M' }));
    expect(rejection.reason).toBe('yes: too many items: 1000000 (max 10000)');
    // The size bound must come before anything that walks the whole side (the record's shape
    // included): only the head the quarantine keeps is read, each level costing at least 6 characters.
    expect(reads).toBeLessThanOrEqual(LIMITS.rejectedPayloadChars / 6 + 1);
    expect(rejection.payload).toMatchObject({ truncated: true, overChars: LIMITS.rejectedPayloadChars });
    expect((rejection.payload as { head: string }).head).toMatch(/^\{"yes":\[\[100,1\],\[99\.9999,1\]/);
  });

  it('10,000 levels per side is still accepted', () => {
    const levels = Array.from({ length: 10_000 }, (_, i) => [(10_000 - i) / 100, i]);
    const checked = parseOrderBook({ yes: levels, no: levels }, { marketId: 'M' });
    expect(checked.ok && checked.value.yes.length).toBe(10_000);
    expect(checked.ok && checked.value.yes[9_999]).toEqual({ priceCents: '0.01', size: '9999' });
  });

  it('a 100 KiB title is rejected', () => {
    const payload = specMarket({ metadata: { title: 'x'.repeat(100 * 1024) } });
    expect(rejected(parseMarket(payload, { eventId: null })).reason).toBe('metadata.title: too long: 102400 characters (max 65536)');
  });

  it('a 64 KiB description is still accepted', () => {
    const checked = parseMarket(specMarket({ metadata: { description: 'd'.repeat(64 * 1024) } }), { eventId: null });
    expect(checked.ok && checked.value.description?.length).toBe(65_536);
  });

  it('more than 10,000 markets in one event rejects the event', () => {
    const markets = new Array(10_001).fill(null);
    expect(rejected(parseEvent(specEvent({ markets }), { provider: null })).reason).toBe('markets: too many items: 10001 (max 10000)');
  });

  it('more than 10,000 records in a page is an unusable response', () => {
    const body = { data: new Array(10_001).fill({}), pagination: specPagination() };
    expect(() => parseEventList(body, { provider: 'polymarket' })).toThrow(ResponseShapeError);
    expect(() => parseEventList(body, { provider: 'polymarket' })).toThrow('data: too many items: 10001 (max 10000)');
  });

  it('deep nesting and cycles are rejected, not recursed into forever', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 100; i++) deep = (deep.x = {}) as Record<string, unknown>;
    expect(rejected(parseMarket(specMarket({ extra: root }), { eventId: null })).reason).toMatch(
      /^extra(\.x)+: nested deeper than 32 levels$/,
    );
    const cyclic: Record<string, unknown> = specMarket();
    cyclic.self = cyclic;
    expect(rejected(parseMarket(cyclic, { eventId: null })).reason).toMatch(/nested deeper than 32 levels$/);
  });

  it('an object with too many keys is rejected', () => {
    const wide = Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`k${i}`, i]));
    expect(rejected(parseMarket(specMarket({ wide }), { eventId: null })).reason).toBe('wide: too many keys: 1001 (max 1000)');
  });

  it('a long string in an unknown field is rejected and reported briefly', () => {
    const rejection = rejected(parseEvent(specEvent({ blob: 'b'.repeat(70_000) }), { provider: null }));
    expect(rejection.reason).toBe('blob: too long: 70000 characters (max 65536)');
  });

  it('a long invalid value is quoted only in part in the reason', () => {
    const reason = rejected(parseMarket(specMarket({ settlementTime: 's'.repeat(1_000) }), { eventId: null })).reason;
    expect(reason).toBe(`settlementTime: expected Unix seconds, got "${'s'.repeat(40)}"… (1000 characters)`);
  });

  it('a label longer than 256 characters is unreadable, not a rejection', () => {
    const market = accepted(parseMarket(without(specMarket({ status: 's'.repeat(1_000) }), 'metadata'), { eventId: null }));
    expect(market.status).toBeNull();
    expect(market.drift).toContain(unreadableTag('status'));
  });
});
