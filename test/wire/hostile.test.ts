import { afterEach, describe, expect, it } from 'vitest';
import { parseEvent, parseEventList, parseMarket, parseOrderBook, ResponseShapeError } from '../../src/api/parse.js';
import type { Checked, Rejection } from '../../src/domain/types.js';
import { specEvent, specMarket, specPagination } from './fixtures.js';

function rejected<T>(checked: Checked<T>): Rejection {
  if (checked.ok) throw new Error('expected a rejection');
  return checked.rejection;
}

/** Builds a JSON text by hand so that it can hold what JSON.stringify would never write. */
function fromJson(text: string): unknown {
  return JSON.parse(text);
}

describe('non-finite and out-of-range numbers', () => {
  it.each(['NaN', 'Infinity', '-Infinity', '1e400', '1e5', '0x10', '', '1.', '.5', '+1', '1_000'])('pricing string %j is rejected', (value) => {
    const rejection = rejected(parseMarket(specMarket({ pricing: { buyYesPriceUsd: value } }), { eventId: null }));
    expect(rejection.reason).toBe(`pricing.buyYesPriceUsd: expected a non-negative decimal number, got ${JSON.stringify(value)}`);
  });

  it('1e400 as a JSON number becomes Infinity in JSON.parse and is rejected', () => {
    const payload = fromJson(JSON.stringify(specMarket()).replace('"buyYesPriceUsd":650000', '"buyYesPriceUsd":1e400'));
    expect(rejected(parseMarket(payload, { eventId: null })).reason).toBe('pricing.buyYesPriceUsd: expected a non-negative number or decimal string, got Infinity');
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('%s in an order book is rejected', (value) => {
    expect(rejected(parseOrderBook({ yes: [[value, 1]], no: [] }, { marketId: 'M' })).reason).toMatch(/^yes\[0\]\[0\]: /);
    expect(rejected(parseOrderBook({ yes: [[50, value]], no: [] }, { marketId: 'M' })).reason).toMatch(/^yes\[0\]\[1\]: /);
  });

  it('NaN/Infinity strings for event amounts and timestamps are rejected', () => {
    expect(rejected(parseEvent(specEvent({ volumeUsd: 'NaN' }), { provider: null })).reason).toMatch(/^volumeUsd: expected .*got "NaN"$/);
    expect(rejected(parseEvent(specEvent({ tvlDollars: 'Infinity' }), { provider: null })).reason).toMatch(/^tvlDollars: .*got "Infinity"$/);
    expect(rejected(parseEvent(specEvent({ beginAt: '1e9' }), { provider: null })).reason).toMatch(/^beginAt: .*got "1e9"$/);
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
    const event = parseEvent(specEvent({ markets: [specMarket({ subtitle: 'x\u0000' }), specMarket({ marketId: 'POLY-2' })] }), { provider: null });
    expect(event.ok).toBe(true);
    if (!event.ok) return;
    expect(event.value.markets?.map((m) => m.marketId)).toEqual(['POLY-2']);
    expect(event.value.rejectedMarkets.map((r) => [r.entityId, r.reason])).toEqual([['POLY-558936', 'markets[0].subtitle: contains a NUL character']]);
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
    for (const reason of reasons) expect(reason.includes('\u0000')).toBe(false);
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
    const list = fromJson(`{"__proto__":{"polluted":1},"data":[],"pagination":{"__proto__":{"hasNext":true},"start":0,"end":0,"total":0,"hasNext":false}}`);
    expect(parseEventList(list, { provider: 'polymarket' }).pagination).toEqual({ start: 0, end: 0, total: 0, hasNext: false });
    const market = parseMarket(fromJson(`{"__proto__":{"status":"open"},${JSON.stringify(specMarket()).slice(1)}`), { eventId: null });
    expect(market.ok && Object.getPrototypeOf(market.value)).toBe(Object.prototype);
    const book = parseOrderBook(fromJson('{"__proto__":{"yes":[[1,1]]},"yes":[],"no":[]}'), { marketId: 'M' });
    expect(book.ok && book.value.yes).toEqual([]);
    expect((probe() as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a __proto__ that would supply a missing required field does not', () => {
    const payload = fromJson(`{"__proto__":{"closeTime":1},${JSON.stringify({ ...specMarket(), closeTime: undefined }).slice(1)}`);
    expect(rejected(parseMarket(payload, { eventId: null })).reason).toBe('closeTime: required');
  });

  it('constructor.prototype payloads are inert', () => {
    const payload = fromJson(`{"constructor":{"prototype":{"polluted":true}},${JSON.stringify(specMarket()).slice(1)}`);
    expect(parseMarket(payload, { eventId: null }).ok).toBe(true);
    expect((probe() as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('absurd sizes', () => {
  it('a 1e6-level order book is rejected quickly, without throwing', () => {
    const levels = Array.from({ length: 1_000_000 }, (_, i) => [100 - i / 10_000, 1]);
    const started = performance.now();
    const rejection = rejected(parseOrderBook({ yes: levels, no: [] }, { marketId: 'M' }));
    expect(rejection.reason).toBe('yes: too many items: 1000000 (max 10000)');
    expect(performance.now() - started).toBeLessThan(1_000);
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
    expect(rejected(parseMarket(specMarket({ extra: root }), { eventId: null })).reason).toMatch(/^extra(\.x)+: nested deeper than 32 levels$/);
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
    const reason = rejected(parseMarket(specMarket({ status: 's'.repeat(1_000) }), { eventId: null })).reason;
    expect(reason).toBe(`status: expected one of open|closed, got "${'s'.repeat(40)}"… (1000 characters)`);
  });
});
