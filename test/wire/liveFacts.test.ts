/**
 * What the live service sends today (July 2026), pinned fact by fact from
 * docs/upstream/live-service.md. Each `it` reads its own fixture from test/fixtures/live
 * (see the README there for the fact -> fixture -> test map). Only the parse entry points are
 * used, so these tests hold whatever the validation layer behind them looks like.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { parseEvent, parseEventArray, parseEventList, parseMarket, parseOrderBook } from '../../src/api/parse.js';
import type { Event, Market, Rejection } from '../../src/domain/types.js';
import { unreadableTag } from '../../src/normalize/driftTags.js';
import { ok, rejected } from '../helpers/checkedResult.js';
import { noQuote } from '../helpers/domainFixtures.js';

type Json = Record<string, unknown>;

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/live/${name}`, import.meta.url), 'utf8')) as unknown;
}

/** The `data` records of an envelope fixture, for comparing raw payloads. */
function records(body: unknown): Json[] {
  return (body as { data: Json[] }).data;
}

function withoutMarkets(record: Json): Json {
  const { markets: _markets, ...rest } = record;
  return rest;
}

function marketsOf(event: Event): Market[] {
  if (event.markets === null) throw new Error(`event ${event.eventId} has markets null`);
  return event.markets;
}

function market(events: Event[], marketId: string): Market {
  const found = events.flatMap((e) => e.markets ?? []).find((m) => m.marketId === marketId);
  if (found === undefined) throw new Error(`market ${marketId} not found`);
  return found;
}

/** `pricingRejection` is part of the rewritten Market; read through a view so this file type-checks before and after. */
function pricingRejectionOf(m: Market): Rejection | null | undefined {
  return (m as Market & { pricingRejection?: Rejection | null }).pricingRejection;
}

function pollPage(): Event[] {
  return parseEventList(fixture('events-page-polymarket.json'), { provider: 'polymarket' }).events.map((e) => ok(e));
}

describe("live facts: events (GET /events?includeMarkets=true, today's shape)", () => {
  it('a page of 4 today-shaped events is read whole: every event and every market accepted, pagination as sent', () => {
    const result = parseEventList(fixture('events-page-polymarket.json'), { provider: 'polymarket' });
    expect(result.pagination).toEqual({ start: 0, end: 4, total: 3774, hasNext: true });
    expect(result.events.map((e) => (e.ok ? e.value.eventId : `rejected: ${e.rejection.reason}`))).toEqual([
      'POLY-572993',
      'POLY-573410',
      'POLY-574122',
      'POLY-16204',
    ]);
    const events = result.events.map((e) => ok(e));
    expect(events.map((e) => e.rejectedMarkets)).toEqual([[], [], [], []]);
    expect(events.map((e) => marketsOf(e).length)).toEqual([1, 2, 3, 2]);
  });

  it('a category outside the documented list ("climate & science") and an empty subcategory are stored as received', () => {
    const events = pollPage();
    expect(events.map((e) => [e.eventId, e.category, e.subcategory])).toEqual([
      ['POLY-572993', 'economics', 'fed'],
      ['POLY-573410', 'climate & science', ''],
      ['POLY-574122', 'sports', 'baseball'],
      ['POLY-16204', 'crypto', 'bitcoin'],
    ]);
  });

  it('fields the service stopped sending are null; series falls back to metadata.series', () => {
    const events = pollPage();
    for (const e of events) {
      expect(e, e.eventId).toMatchObject({ multipleWinners: null, winner: null, isTrending: null, isRecommended: null, tvlUsd: null });
    }
    expect(events.map((e) => e.series)).toEqual(['fed-interest-rates', 'atlantic-hurricane-season-2026', 'mlb', 'bitcoin-price-targets']);
  });

  it('beginAt: null, a string of whole seconds, or fractional seconds (kept)', () => {
    expect(pollPage().map((e) => e.beginAtSec)).toEqual([null, 1784304000, 1784692980.306, 1748555553.385]);
  });

  it('volumeUsd is the micro-USD string as received', () => {
    expect(pollPage().map((e) => e.volumeUsd)).toEqual(['26003599000000', '2797530000000', '704337000000', '24224927000000']);
  });

  it('title, subtitle and imageUrl come from metadata; isActive, isLive, closeCondition, rulesPdf as sent', () => {
    const [fed, , mlb] = pollPage();
    expect(fed).toMatchObject({
      title: 'Fed decision in July?',
      subtitle: 'FOMC meeting of July 28-29, 2026',
      imageUrl: 'https://polymarket-upload.s3.us-east-2.amazonaws.com/fed-decision-in-july-2026.png',
      isActive: true,
      isLive: false,
      closeCondition: 'Closes when the FOMC announces its decision on July 29, 2026.',
      rulesPdf: '',
    });
    expect(mlb).toMatchObject({ title: 'Dodgers vs. Giants', isLive: true });
  });

  it('provider comes from the request when the event carries none', () => {
    expect(pollPage().map((e) => e.provider)).toEqual(['polymarket', 'polymarket', 'polymarket', 'polymarket']);
  });

  it("today's shape differs from the spec, and each event records it as drift", () => {
    for (const e of pollPage()) expect(e.drift.length, e.eventId).toBeGreaterThan(0);
  });

  it('raw is the event as received without its markets (tags, volume24hr, sportsMarketGroups... kept)', () => {
    const body = fixture('events-page-polymarket.json');
    const events = parseEventList(body, { provider: 'polymarket' }).events.map((e) => ok(e));
    records(body).forEach((record, i) => expect(events[i]?.raw).toEqual(withoutMarkets(record)));
    expect(events[0]?.raw).toMatchObject({ volume24hr: '412877000000', tags: ['Economy', 'Fed', 'Fed Rates'], sportsMarketGroups: [] });
    expect(Object.hasOwn(events[0]?.raw as object, 'markets')).toBe(false);
  });

  it('GET /events/{id} answers the same record: parseEvent reads it alike', () => {
    const record = records(fixture('events-page-polymarket.json'))[1];
    const event = ok(parseEvent(record, { provider: 'polymarket' }));
    expect(event).toMatchObject({
      eventId: 'POLY-573410',
      category: 'climate & science',
      beginAtSec: 1784304000,
      volumeUsd: '2797530000000',
    });
    expect(marketsOf(event).map((m) => m.marketId)).toEqual(['POLY-2471502', 'POLY-2471503']);
  });

  it('a bisonfi event (provider since 2026-07-02): provider from the wire, tradable read, nothing rejected', () => {
    const result = parseEventList(fixture('events-page-bisonfi.json'), { provider: 'polymarket' });
    expect(result.pagination).toEqual({ start: 0, end: 1, total: 1, hasNext: false });
    const event = ok(result.events[0]);
    expect(event).toMatchObject({
      eventId: 'BISONFI-40211',
      provider: 'bisonfi',
      category: 'crypto',
      beginAtSec: 1784894400,
      volumeUsd: '5120000000',
    });
    expect(event.rejectedMarkets).toEqual([]);
    expect(marketsOf(event).map((m) => [m.marketId, m.eventId, m.status, m.isTradable, m.pricing?.buyYesMicroUsd])).toEqual([
      ['BISONFI-40211-UP', 'BISONFI-40211', 'open', true, '560000'],
      ['BISONFI-40211-DOWN', 'BISONFI-40211', 'open', true, '460000'],
    ]);
  });

  it('includeMarkets=false drops `markets`: the events are read with markets null', () => {
    const result = parseEventList(fixture('events-page-without-markets.json'), { provider: 'polymarket' });
    expect(result.pagination).toEqual({ start: 0, end: 2, total: 3774, hasNext: true });
    const events = result.events.map((e) => ok(e));
    expect(events.map((e) => [e.eventId, e.markets, e.rejectedMarkets, e.beginAtSec, e.volumeUsd])).toEqual([
      ['POLY-572993', null, [], null, '26003599000000'],
      ['POLY-16204', null, [], 1748555553.385, '24224927000000'],
    ]);
  });
});

describe('live facts: markets (flat since 2026-06-18)', () => {
  it('status, result and settlement of every embedded market, as received', () => {
    const events = pollPage();
    expect(events.flatMap((e) => marketsOf(e).map((m) => [m.marketId, m.eventId, m.status, m.result, m.settlementTimeSec]))).toEqual([
      ['POLY-2470848', 'POLY-572993', 'open', null, null],
      ['POLY-2471502', 'POLY-573410', 'closed', 'no', 1784870052.365],
      ['POLY-2471503', 'POLY-573410', 'open', null, null],
      ['POLY-2472210', 'POLY-574122', 'open', null, null],
      ['POLY-2472211', 'POLY-574122', 'open', null, null],
      ['POLY-2472212', 'POLY-574122', 'open', null, null],
      ['POLY-561204', 'POLY-16204', 'open', null, null],
      ['POLY-561209', 'POLY-16204', 'open', null, null],
    ]);
  });

  it('an open market: result null, resolveAt null, times in seconds, texts from the flat record', () => {
    expect(market(pollPage(), 'POLY-2470848')).toMatchObject({
      marketId: 'POLY-2470848',
      eventId: 'POLY-572993',
      status: 'open',
      result: null,
      openTimeSec: 1777593600,
      closeTimeSec: 1785348000,
      settlementTimeSec: null,
      title: 'No change in Fed interest rates after the July 2026 meeting?',
      rulesSecondary: 'The resolution source is the FOMC statement published on federalreserve.gov after the meeting.',
      isTradable: null,
    });
  });

  it('a resolved market: closed, result "no", resolveAt ISO string -> fractional Unix seconds', () => {
    expect(market(pollPage(), 'POLY-2471502')).toMatchObject({
      status: 'closed',
      result: 'no',
      openTimeSec: 1782864000,
      closeTimeSec: 1784851199,
      settlementTimeSec: 1784870052.365,
      title: 'US hurricane landfall by July 23?',
    });
  });

  it('nested markets carry no eventId: it comes from the event; raw is the market as received', () => {
    const body = fixture('events-page-polymarket.json');
    const events = parseEventList(body, { provider: 'polymarket' }).events.map((e) => ok(e));
    records(body).forEach((record, i) => {
      const wire = record.markets as Json[];
      const parsed = marketsOf(events[i] as Event);
      expect(wire.filter((m) => Object.hasOwn(m, 'eventId'))).toEqual([]);
      expect(parsed.map((m) => m.eventId)).toEqual(wire.map(() => record.eventId));
      expect(parsed.map((m) => m.raw)).toEqual(wire);
    });
  });

  it("today's markets differ from the spec (flat, resolveAt...), and each records it as drift", () => {
    for (const m of pollPage().flatMap(marketsOf)) expect(m.drift.length, m.marketId).toBeGreaterThan(0);
  });

  it('GET /markets/{id}: flat, with eventId on the wire; reads like its copy nested in the event', () => {
    const body = fixture('market-detail-live.json');
    const detail = ok(parseMarket(body, { eventId: null }));
    const nested = market(pollPage(), 'POLY-2471502');
    expect(detail.eventId).toBe('POLY-573410');
    const pick = (m: Market) => [
      m.marketId,
      m.status,
      m.result,
      m.openTimeSec,
      m.closeTimeSec,
      m.settlementTimeSec,
      m.title,
      m.rulesPrimary,
      m.pricing,
    ];
    expect(pick(detail)).toEqual(pick(nested));
    expect(detail.settlementTimeSec).toBe(1784870052.365);
    expect(detail.raw).toEqual(body);
    expect(pricingRejectionOf(detail)).toBeNull();
  });

  it('status "cancelled" (listed by the specs, not seen live) is kept as received', () => {
    const m = ok(parseMarket(fixture('market-detail-cancelled.json'), { eventId: null }));
    expect(m).toMatchObject({
      marketId: 'POLY-2469012',
      eventId: 'POLY-572101',
      status: 'cancelled',
      result: null,
      settlementTimeSec: null,
    });
    expect(m.pricing).toEqual(noQuote('0'));
  });
});

describe('live facts: pricing (micro-USD prices, whole-dollar volume)', () => {
  it('open-market prices are micro-USD integers, kept as canonical decimal strings', () => {
    expect(market(pollPage(), 'POLY-561204').pricing).toEqual({
      buyYesMicroUsd: '184000',
      buyNoMicroUsd: '824000',
      sellYesMicroUsd: '176000',
      sellNoMicroUsd: '816000',
      volume: '15203377',
    });
  });

  it('a closed, resolved market with all four prices 0 has no quote (null prices), volume kept', () => {
    const m = market(pollPage(), 'POLY-2471502');
    expect(m.pricing).toEqual(noQuote('1843220'));
    expect(pricingRejectionOf(m)).toBeNull();
  });

  it('no NO bid (sellNo 0) and no YES ask (buyYes 1000000) on an open market are kept as received', () => {
    expect(market(pollPage(), 'POLY-2470848').pricing).toEqual({
      buyYesMicroUsd: '1000000',
      buyNoMicroUsd: '1000',
      sellYesMicroUsd: '999000',
      sellNoMicroUsd: '0',
      volume: '26003599',
    });
  });

  it('no YES bid (sellYes 0) on an open market is kept as received', () => {
    expect(market(pollPage(), 'POLY-2472212').pricing).toEqual({
      buyYesMicroUsd: '30000',
      buyNoMicroUsd: '1000000',
      sellYesMicroUsd: '0',
      sellNoMicroUsd: '970000',
      volume: '4120',
    });
  });

  it("pricing.volume is whole dollars: each event's micro-USD volumeUsd = sum of its markets' volume x 10^6", () => {
    const events = pollPage();
    expect(events.map((e) => [e.volumeUsd, marketsOf(e).map((m) => m.pricing?.volume)])).toEqual([
      ['26003599000000', ['26003599']],
      ['2797530000000', ['1843220', '954310']],
      ['704337000000', ['612004', '88213', '4120']],
      ['24224927000000', ['15203377', '9021550']],
    ]);
    for (const e of events) {
      const dollars = marketsOf(e).reduce((sum, m) => sum + BigInt(m.pricing?.volume ?? 'x'), 0n);
      expect(BigInt(e.volumeUsd ?? 'x'), e.eventId).toBe(dollars * 1_000_000n);
    }
  });

  it('no real-shaped market has a pricing rejection', () => {
    for (const m of pollPage().flatMap(marketsOf)) expect(pricingRejectionOf(m), m.marketId).toBeNull();
  });

  it('May 2026 third-party report: null prices on a closed market read as no quote, volume kept', () => {
    const m = ok(parseMarket(fixture('market-detail-2026-05-null-prices.json'), { eventId: null }));
    expect(m).toMatchObject({
      marketId: 'POLY-2431187',
      eventId: 'POLY-561770',
      status: 'closed',
      result: 'yes',
      settlementTimeSec: 1778568137.904,
    });
    expect(m.pricing).toEqual(noQuote('310442'));
    expect(pricingRejectionOf(m)).toBeNull();
  });

  it('April-May third-party excerpts: an extra outcomePrices array is tolerated and kept in raw', () => {
    const body = fixture('market-detail-2026-05-outcome-prices.json');
    const m = ok(parseMarket(body, { eventId: null }));
    expect(m.pricing).toEqual({
      buyYesMicroUsd: '96000',
      buyNoMicroUsd: '906000',
      sellYesMicroUsd: '94000',
      sellNoMicroUsd: '904000',
      volume: '2210984',
    });
    expect((m.raw as Json).outcomePrices).toEqual(['0.095', '0.905']);
  });
});

describe('live facts: order books (GET /orderbook/{id})', () => {
  const ctx = { marketId: 'POLY-2470848' };

  it('96 ascending, unmerged YES levels: 96 levels best first, prices from the dollar strings, all distinct', () => {
    const body = fixture('orderbook-96-levels.json');
    const book = ok(parseOrderBook(body, ctx));
    expect(book).toMatchObject({ marketId: 'POLY-2470848', isNull: false, no: [] });
    expect(book.yes).toHaveLength(96);
    expect(book.yes.slice(0, 6)).toEqual([
      { priceCents: '99.9', size: '17741.84' },
      { priceCents: '99.8', size: '1584' },
      { priceCents: '99.7', size: '15529' },
      { priceCents: '99.6', size: '8288' },
      { priceCents: '99.5', size: '2858' },
      { priceCents: '99.4', size: '13596.81' },
    ]);
    expect(book.yes.slice(-5)).toEqual([
      { priceCents: '0.5', size: '117194' },
      { priceCents: '0.4', size: '171179' },
      { priceCents: '0.3', size: '19545' },
      { priceCents: '0.2', size: '21919' },
      { priceCents: '0.1', size: '659518.58' },
    ]);
    expect(book.yes.find((l) => l.priceCents === '10')).toEqual({ priceCents: '10', size: '17878' });
    expect(new Set(book.yes.map((l) => l.priceCents)).size).toBe(96);
    const prices = book.yes.map((l) => Number(l.priceCents));
    expect(prices.filter((p, i) => i > 0 && !(p < (prices[i - 1] as number)))).toEqual([]);
  });

  it('sizes are exact and in the same order as sent (20 fractional ones, e.g. 659518.58)', () => {
    const body = fixture('orderbook-96-levels.json') as { yes_dollars: [string, number][] };
    const book = ok(parseOrderBook(body, ctx));
    expect(book.yes.map((l) => l.size)).toEqual(body.yes_dollars.map(([, size]) => String(size)).reverse());
    expect(book.yes.filter((l) => l.size.includes('.'))).toHaveLength(20);
  });

  it("the best YES bid ($0.999) equals the market's sellYesPriceUsd 999000; no NO levels go with sellNo 0 / buyYes 1000000", () => {
    const book = ok(parseOrderBook(fixture('orderbook-96-levels.json'), ctx));
    const pricing = market(pollPage(), 'POLY-2470848').pricing;
    expect(book.yes[0]?.priceCents).toBe('99.9');
    expect(pricing?.sellYesMicroUsd).toBe('999000');
    expect(Math.round(Number(book.yes[0]?.priceCents) * 10_000)).toBe(Number(pricing?.sellYesMicroUsd));
    expect(book.no).toEqual([]);
    expect([pricing?.sellNoMicroUsd, pricing?.buyYesMicroUsd]).toEqual(['0', '1000000']);
  });

  it('the dollars arrays and the ascending order differ from the spec: recorded as drift', () => {
    expect(ok(parseOrderBook(fixture('orderbook-96-levels.json'), ctx)).drift.length).toBeGreaterThan(0);
  });

  it('cent arrays only: repeated prices are merged by summing sizes exactly', () => {
    const book = ok(parseOrderBook(fixture('orderbook-cents-only-repeats.json'), ctx));
    expect(book.yes).toEqual([
      { priceCents: '5', size: '7.75' },
      { priceCents: '2', size: '10' },
      { priceCents: '1', size: '3.75' },
    ]);
    expect(book.no).toEqual([
      { priceCents: '9', size: '0.3' },
      { priceCents: '7', size: '20' },
      { priceCents: '3', size: '100.5' },
    ]);
  });

  it('a bad level (negative size, price as a string) is dropped; the book is kept', () => {
    const book = ok(parseOrderBook(fixture('orderbook-bad-levels.json'), ctx));
    expect(book.yes).toEqual([
      { priceCents: '4', size: '2' },
      { priceCents: '1', size: '5' },
    ]);
    expect(book.no).toEqual([{ priceCents: '10', size: '1' }]);
  });

  it('a null body is a book that is null', () => {
    expect(ok(parseOrderBook(fixture('orderbook-null.json'), ctx))).toMatchObject({
      marketId: 'POLY-2470848',
      isNull: true,
      yes: [],
      no: [],
    });
  });

  it('the documented example (2026-02 to now): both sides, best first, prices from the dollar strings', () => {
    const book = ok(parseOrderBook(fixture('orderbook-doc-2026-02-to-now.json'), ctx));
    expect(book.yes).toEqual([
      { priceCents: '3', size: '12300' },
      { priceCents: '2', size: '10568' },
      { priceCents: '1', size: '346014' },
    ]);
    expect(book.no).toEqual([
      { priceCents: '3', size: '4400' },
      { priceCents: '2', size: '14' },
      { priceCents: '1', size: '219' },
    ]);
  });
});

describe('live facts: other endpoints (search, suggested)', () => {
  it('search?query=trump&limit=2 answered 10 events with markets: []: all 10 are read', () => {
    const body = fixture('search-trump.json');
    expect((body as { pagination: unknown }).pagination).toEqual({ start: 0, end: 10, total: 91, hasNext: true });
    const events = parseEventArray(body, { provider: 'polymarket' }).events.map((e) => ok(e));
    expect(events.map((e) => e.eventId)).toEqual([
      'POLY-16282',
      'POLY-30615',
      'POLY-41877',
      'POLY-52240',
      'POLY-53016',
      'POLY-38410',
      'POLY-47722',
      'POLY-50981',
      'POLY-44109',
      'POLY-55310',
    ]);
    for (const e of events) {
      expect(e.markets, e.eventId).toEqual([]);
      expect(e.rejectedMarkets, e.eventId).toEqual([]);
    }
    expect(events.map((e) => e.beginAtSec)).toEqual([
      null,
      1782864000,
      null,
      1780272000,
      1784505600,
      null,
      null,
      1767225600,
      null,
      1782864000.5,
    ]);
    expect(events[0]?.volumeUsd).toBe('18211405000000');
  });

  it('suggested/{pubkey}: {data} without pagination, events with full markets', () => {
    const body = fixture('suggested.json');
    expect(Object.keys(body as Json)).toEqual(['data']);
    const events = parseEventArray(body, { provider: null }).events.map((e) => ok(e));
    expect(events.map((e) => [e.eventId, e.category, e.isActive, e.rejectedMarkets])).toEqual([
      ['POLY-572993', 'economics', true, []],
      ['POLY-575880', 'climate & science', false, []],
    ]);
    expect(
      events.flatMap((e) => marketsOf(e).map((m) => [m.marketId, m.eventId, m.status, m.result, m.settlementTimeSec, m.pricing])),
    ).toEqual([
      [
        'POLY-2470848',
        'POLY-572993',
        'open',
        null,
        null,
        { buyYesMicroUsd: '1000000', buyNoMicroUsd: '1000', sellYesMicroUsd: '999000', sellNoMicroUsd: '0', volume: '26003599' },
      ],
      ['POLY-2473301', 'POLY-575880', 'closed', 'yes', 1784637005.118, noQuote('218440')],
      ['POLY-2473302', 'POLY-575880', 'closed', 'no', 1784637005.118, noQuote('197115')],
    ]);
  });
});

describe('live facts: a mostly broken page (degraded run keeps what it can read)', () => {
  const body = fixture('events-page-mostly-broken.json');
  const data = records(body);

  it('is not thrown away: broken events are rejected, readable ones kept, in order, with the pagination', () => {
    const result = parseEventList(body, { provider: 'polymarket' });
    expect(result.pagination).toEqual({ start: 20, end: 26, total: 3774, hasNext: true });
    expect(result.events.map((e) => (e.ok ? e.value.eventId : 'rejected'))).toEqual([
      'rejected',
      'rejected',
      'POLY-573100',
      // Its beginAt cannot be read: stored as null and tagged, the event and its markets kept.
      'POLY-573102',
      'POLY-573101',
      'rejected',
    ]);
    const unreadableBeginAt = ok(result.events[3]);
    expect(unreadableBeginAt.beginAtSec).toBeNull();
    expect(unreadableBeginAt.drift).toContain(unreadableTag('beginAt'));
  });

  it('each rejected event keeps its payload, and its id when one could be read', () => {
    const events = parseEventList(body, { provider: 'polymarket' }).events;
    const noId = rejected(events[0]);
    expect(noId).toMatchObject({ entityId: null, payload: data[0] });
    expect(noId.reason).toMatch(/eventId/);
    const numericId = rejected(events[1]);
    expect(numericId.payload).toEqual(data[1]);
    expect(numericId.reason).toMatch(/eventId/);
    const nullId = rejected(events[5]);
    expect(nullId).toMatchObject({ entityId: null, payload: data[5] });
    expect(nullId.reason).toMatch(/eventId/);
  });

  it('a price that is not a number quarantines its market only; an out-of-range price voids the pricing only', () => {
    const event = ok(parseEventList(body, { provider: 'polymarket' }).events[2]);
    const wire = data[2]?.markets as Json[];
    expect(marketsOf(event).map((m) => m.marketId)).toEqual(['POLY-2471001', 'POLY-2471003']);
    expect(event.rejectedMarkets).toHaveLength(1);
    expect(event.rejectedMarkets[0]).toMatchObject({ entityId: 'POLY-2471002', payload: wire[1] });
    expect(event.rejectedMarkets[0]?.reason).toMatch(/buyYesPriceUsd/);

    const [sibling, outOfRange] = marketsOf(event) as [Market, Market];
    expect(sibling.pricing).toEqual({
      buyYesMicroUsd: '400000',
      buyNoMicroUsd: '610000',
      sellYesMicroUsd: '390000',
      sellNoMicroUsd: '600000',
      volume: '1000',
    });
    expect(pricingRejectionOf(sibling)).toBeNull();
    expect(outOfRange.pricing).toBeNull();
    expect(pricingRejectionOf(outOfRange)).not.toBeNull();
    expect(pricingRejectionOf(outOfRange)?.reason).toMatch(/buyYesPriceUsd/);
    expect(outOfRange).toMatchObject({ eventId: 'POLY-573100', status: 'open', closeTimeSec: 1785542399 });
  });

  it('a market without an id is quarantined; one whose close time cannot be read is kept, tagged; their sibling is kept', () => {
    const event = ok(parseEventList(body, { provider: 'polymarket' }).events[4]);
    const wire = data[4]?.markets as Json[];
    expect(marketsOf(event).map((m) => [m.marketId, m.eventId])).toEqual([
      ['POLY-2471005', 'POLY-573101'],
      ['POLY-2471006', 'POLY-573101'],
    ]);
    const [unreadableClose] = marketsOf(event) as [Market];
    expect(unreadableClose.closeTimeSec).toBeNull();
    expect(unreadableClose.drift).toContain(unreadableTag('closeTime'));
    expect(event.rejectedMarkets.map((r) => [r.entityId, r.payload])).toEqual([[null, wire[0]]]);
    expect(event.rejectedMarkets[0]?.reason).toMatch(/marketId/);
  });
});

/** The market every doc example of /markets/{id} describes, in each of its shapes. */
const DOC_MARKET = {
  marketId: 'market-456',
  eventId: 'event-123',
  title: 'SOL $500 by Q2 2026',
  status: 'open',
  result: null,
  openTimeSec: 1704067200,
  closeTimeSec: 1719792000,
  settlementTimeSec: null,
};
const DOC_PRICES = { buyYesMicroUsd: '650000', buyNoMicroUsd: '380000', sellYesMicroUsd: '620000', sellNoMicroUsd: '350000' };

describe('live facts: historical market shapes (doc examples of /markets/{id})', () => {
  it('2026-02: flat, prices as strings at the top level, result "" (read as null)', () => {
    const body = fixture('market-detail-2026-02.json');
    const m = ok(parseMarket(body, { eventId: null }));
    expect(m).toMatchObject({ ...DOC_MARKET, description: 'Will Solana reach $500 USD...' });
    expect(m.pricing).toMatchObject(DOC_PRICES);
    expect(m.drift.length).toBeGreaterThan(0);
    expect(m.raw).toEqual(body);
  });

  it('2026-02 spec: result "pending" is read as null too', () => {
    const body = { ...(fixture('market-detail-2026-02.json') as Json), result: 'pending' };
    expect(ok(parseMarket(body, { eventId: null })).result).toBeNull();
  });

  it('2026-03: nested metadata beside top-level status/result; title and rules from metadata', () => {
    const m = ok(parseMarket(fixture('market-detail-2026-03.json'), { eventId: 'event-123' }));
    expect(m).toMatchObject({ ...DOC_MARKET, rulesPrimary: 'Resolves YES if SOL reaches $500...' });
    expect(m.pricing).toEqual({ ...DOC_PRICES, volume: '450000' });
    expect(m.drift.length).toBeGreaterThan(0);
  });

  it('2026-06: flat as today, eventId on the wire', () => {
    const m = ok(parseMarket(fixture('market-detail-2026-06.json'), { eventId: null }));
    expect(m).toMatchObject({ ...DOC_MARKET, rulesPrimary: 'Resolves YES if SOL reaches $500...' });
    expect(m.pricing).toEqual({ ...DOC_PRICES, volume: '450000' });
    expect(pricingRejectionOf(m)).toBeNull();
    expect(m.drift.length).toBeGreaterThan(0);
  });
});
