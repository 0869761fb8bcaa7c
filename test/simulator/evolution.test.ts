import { describe, expect, it } from 'vitest';

import { World } from '../../src/simulator/index.js';

const HOUR = 3600;

describe('world.step', () => {
  it('moves only some markets; the others stay byte-identical', () => {
    const world = new World({ seed: 11, markets: 400 });
    const before = new Map(
      world.markets().map((m) => [m.marketId, JSON.stringify([world.marketJson(m.marketId), world.orderBookJson(m.marketId)])]),
    );
    const report = world.step(HOUR);
    const open = world.markets().filter((m) => m.status === 'open');
    expect(report.tradedMarketIds.length).toBeGreaterThan(0);
    expect(report.tradedMarketIds.length).toBeLessThan(open.length);
    const changed = new Set([...report.tradedMarketIds, ...report.closedMarketIds, ...report.settledMarketIds]);
    for (const m of world.markets()) {
      if (changed.has(m.marketId) || !before.has(m.marketId)) continue;
      expect(JSON.stringify([world.marketJson(m.marketId), world.orderBookJson(m.marketId)])).toBe(before.get(m.marketId));
    }
    for (const id of report.tradedMarketIds) expect(world.market(id)!.lastTradeSec).toBe(world.nowSec);
    expect(world.nowSec).toBe(report.toSec);
  });

  it('closes markets at closeTime, settles them after a lag, then resolves and unlists the event', () => {
    const world = new World({ seed: 5, markets: 60, settlementLagSec: [600, 1200] });
    const eventId = world.addEvent({
      provider: 'kalshi',
      category: 'sports',
      marketCount: 3,
      durationSec: 2 * HOUR,
      beginAtSec: world.nowSec,
    });
    const ids = world.event(eventId)!.marketIds;
    expect(world.listEvents({ provider: 'kalshi', category: 'sports' }).map((e) => e.eventId)).toContain(eventId);
    expect(world.eventJson(eventId)!.isLive).toBe(true);

    world.step(2 * HOUR);
    for (const id of ids) {
      const m = world.marketJson(id)!;
      expect(m.status).toBe('closed');
      expect(m.result).toBeNull();
      expect(m.settlementTime).toBe(0);
      expect(world.orderBookJson(id)).toBeNull();
    }
    expect(world.eventJson(eventId)!.winner).toBe('');

    const report = world.step(1200);
    expect(report.settledMarketIds).toEqual(expect.arrayContaining([...ids]));
    expect(report.resolvedEventIds).toContain(eventId);
    const results = ids.map((id) => world.marketJson(id)!);
    expect(results.filter((m) => m.result === 'yes')).toHaveLength(1);
    for (const m of results) {
      expect(m.settlementTime).toBeGreaterThan(m.closeTime);
      expect(m.settlementTime).toBeLessThanOrEqual(world.nowSec);
    }
    const event = world.eventJson(eventId, { includeMarkets: true })!;
    expect(event.winner).toBe(results.find((m) => m.result === 'yes')!.marketId);
    expect(event.isActive).toBe(false);
    expect(event.isLive).toBe(false);
    expect(world.listEvents({ provider: 'kalshi', category: 'all' }).map((e) => e.eventId)).not.toContain(eventId);
  });

  it('adds new events over time, listed under filter=new', () => {
    const world = new World({ seed: 2, markets: 100, newEventsPerDay: 48 });
    const report = world.step(6 * HOUR);
    expect(report.addedEventIds.length).toBe(12);
    const fresh = new Set(
      ['kalshi', 'polymarket'].flatMap((p) =>
        world.listEvents({ provider: p as 'kalshi', category: 'all', filter: 'new' }).map((e) => e.eventId),
      ),
    );
    for (const id of report.addedEventIds) expect(fresh).toContain(id);
    for (const id of report.addedEventIds) {
      expect(world.event(id)!.createdAtSec).toBeGreaterThan(report.fromSec);
      expect(world.event(id)!.createdAtSec).toBeLessThanOrEqual(report.toSec);
    }
    world.step(2 * 24 * HOUR);
    const stillNew = new Set(
      ['kalshi', 'polymarket'].flatMap((p) =>
        world.listEvents({ provider: p as 'kalshi', category: 'all', filter: 'new' }).map((e) => e.eventId),
      ),
    );
    for (const id of report.addedEventIds) expect(stillNew).not.toContain(id);
  });

  it('rejects a negative or fractional step', () => {
    const world = new World({ seed: 1, markets: 20 });
    expect(() => world.step(-1)).toThrow(RangeError);
    expect(() => world.step(0.5)).toThrow(RangeError);
  });
});

describe('mutators', () => {
  const pickSingleWinner = (world: World) =>
    world
      .events()
      .find(
        (e) => e.isActive && !e.multipleWinners && e.marketIds.length >= 3 && world.marketsOf(e.eventId).every((m) => m.status === 'open'),
      )!;

  it('closeMarket closes now and resolveMarket settles with settlementTime', () => {
    const world = new World({ seed: 9, markets: 200 });
    const event = pickSingleWinner(world);
    const [a, b, c] = event.marketIds as [string, string, string];
    world.closeMarket(a);
    expect(world.marketJson(a)).toMatchObject({ status: 'closed', result: null, settlementTime: 0, closeTime: world.nowSec });
    world.resolveMarket(b, 'yes');
    expect(world.marketJson(b)).toMatchObject({ status: 'closed', result: 'yes', settlementTime: world.nowSec });
    expect(world.marketJson(b)!.pricing).toMatchObject({
      buyYesPriceUsd: 1_000_000,
      sellYesPriceUsd: 1_000_000,
      buyNoPriceUsd: 0,
      sellNoPriceUsd: 0,
    });
    expect(() => world.resolveMarket(b, 'no')).toThrow(/already settled/);
    // In a single-winner event the others now lose, whenever they settle.
    world.step(world.market(c)!.closeTimeSec - world.nowSec + 6 * HOUR);
    expect(world.marketJson(c)!.result).toBe('no');
    expect(world.marketJson(a)!.result).toBe('no');
    expect(world.eventJson(event.eventId)).toMatchObject({ winner: b, isActive: false });
  });

  it('delistEvent drops the event from the listing but keeps it readable', () => {
    const world = new World({ seed: 4, markets: 100 });
    const e = world.listEvents({ provider: 'polymarket', category: 'all' })[0]!;
    world.delistEvent(e.eventId);
    expect(world.listEvents({ provider: 'polymarket', category: 'all' }).map((x) => x.eventId)).not.toContain(e.eventId);
    expect(world.eventJson(e.eventId)).toMatchObject({ isActive: false, winner: '' });
  });

  it('setPrice and setEventVolume change pricing, book and volume order', () => {
    const world = new World({ seed: 4, markets: 100 });
    const market = world.markets().find((m) => m.status === 'open' && m.hasBook)!;
    world.setPrice(market.marketId, { buyYesPriceUsd: 650_000, sellYesPriceUsd: 630_000 });
    expect(world.marketJson(market.marketId)!.pricing).toEqual(
      expect.objectContaining({ buyYesPriceUsd: 650_000, sellYesPriceUsd: 630_000, buyNoPriceUsd: 370_000, sellNoPriceUsd: 350_000 }),
    );
    const book = world.orderBookJson(market.marketId)!;
    expect(book.yes[0]![0]).toBe(63);
    expect(book.no[0]![0]).toBe(35);
    expect(() => world.setPrice(market.marketId, { buyYesPriceUsd: 500_000, sellYesPriceUsd: 600_000 })).toThrow(RangeError);

    const listed = world.listEvents({ provider: 'polymarket', category: 'all' });
    const last = listed[listed.length - 1]!;
    world.setEventVolume(last.eventId, listed[0]!.volumeMicroUsd + 1);
    expect(world.listEvents({ provider: 'polymarket', category: 'all' })[0]!.eventId).toBe(last.eventId);
  });
});
