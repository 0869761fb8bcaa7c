import { describe, expect, it } from 'vitest';

import { CONCRETE_CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import { World } from '../../src/simulator/index.js';
import { specOrderBookSchema } from '../../src/wire/specShapes.js';
import { simulatedSpecEventSchema, simulatedSpecMarketSchema } from './wireSchemas.js';

const allJson = (w: World) => w.events().map((e) => w.eventJson(e.eventId, { includeMarkets: true }));

describe('generated world', () => {
  const world = new World({ seed: 7, markets: 300 });

  it('has exactly the target number of markets, across both providers and all categories', () => {
    expect(world.markets()).toHaveLength(300);
    const pairs = new Set(world.events().map((e) => `${e.provider}/${e.category}`));
    for (const p of KNOWN_PROVIDERS) for (const c of CONCRETE_CATEGORIES) expect(pairs).toContain(`${p}/${c}`);
    expect(Math.max(...world.events().map((e) => e.marketIds.length))).toBeGreaterThan(1);
    expect(world.events()).toContainEqual(expect.objectContaining({ multipleWinners: true }));
  });

  it('uses unique upstream-style ids', () => {
    const ids = [...world.events().map((e) => e.eventId), ...world.markets().map((m) => m.marketId)];
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of world.events()) {
      const pattern = e.provider === 'polymarket' ? /^POLY-\d+$/ : /^KX[A-Z0-9]+-\d{2}[A-Z]{3}[0-9A-Z]+$/;
      expect(e.eventId).toMatch(pattern);
      for (const id of e.marketIds)
        expect(id).toMatch(e.provider === 'polymarket' ? /^POLY-\d+$/ : new RegExp(`^${e.eventId}-[A-Z0-9.]+$`));
    }
  });

  it('renders every record in the spec shape with consistent prices and books', () => {
    for (const json of allJson(world)) simulatedSpecEventSchema.parse(json);
    for (const m of world.markets()) {
      const { pricing } = simulatedSpecMarketSchema.parse(world.marketJson(m.marketId));
      expect(pricing.buyYesPriceUsd).toBeGreaterThanOrEqual(pricing.sellYesPriceUsd);
      expect(pricing.buyNoPriceUsd).toBeGreaterThanOrEqual(pricing.sellNoPriceUsd);
      expect(pricing.buyNoPriceUsd).toBe(1_000_000 - pricing.sellYesPriceUsd);
      expect(pricing.sellNoPriceUsd).toBe(1_000_000 - pricing.buyYesPriceUsd);
      const book = specOrderBookSchema.parse(world.orderBookJson(m.marketId));
      if (m.status === 'closed') expect(book).toBeNull();
      if (!book) continue;
      for (const side of [book.yes, book.no]) {
        const prices = side.map(([p]) => p);
        expect(prices).toEqual([...prices].sort((a, b) => b - a));
      }
      expect(book.yes[0]?.[0]).toBe(pricing.sellYesPriceUsd / 10_000);
      // Best YES ask = 100 - best NO bid.
      expect(100 - book.no[0]![0]).toBe(pricing.buyYesPriceUsd / 10_000);
    }
  });

  it('starts with history: some markets closed or settled, some events resolved and unlisted', () => {
    const settled = world.markets().filter((m) => m.result !== null);
    expect(settled.length).toBeGreaterThan(0);
    for (const m of settled) expect(m.settlementTimeSec).toBeGreaterThan(0);
    for (const m of world.markets().filter((x) => x.result === null)) expect(m.settlementTimeSec).toBe(0);
    const resolved = world.events().filter((e) => e.winner !== '');
    expect(resolved.length).toBeGreaterThan(0);
    const listed = new Set(KNOWN_PROVIDERS.flatMap((provider) => world.listEvents({ provider, category: 'all' }).map((e) => e.eventId)));
    for (const e of resolved) {
      expect(e.isActive).toBe(false);
      expect(listed).not.toContain(e.eventId);
      expect(e.marketIds).toContain(e.winner);
    }
  });
});

describe('determinism', () => {
  it('gives the same world, steps and books for the same seed', () => {
    const a = new World({ seed: 3, markets: 150 });
    const b = new World({ seed: 3, markets: 150 });
    expect(allJson(a)).toEqual(allJson(b));
    expect(a.step(7200)).toEqual(b.step(7200));
    expect(allJson(a)).toEqual(allJson(b));
    const id = a.markets().find((m) => m.status === 'open' && m.hasBook)!.marketId;
    expect(a.orderBookJson(id)).toEqual(b.orderBookJson(id));
  });

  it('gives a different world for another seed', () => {
    expect(allJson(new World({ seed: 1, markets: 100 }))).not.toEqual(allJson(new World({ seed: 2, markets: 100 })));
  });
});
