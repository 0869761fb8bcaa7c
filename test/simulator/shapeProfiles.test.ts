/** The 'spec' and 'mixed' profiles, and record-level drift on top of a profile. */
import { createHash } from 'node:crypto';

import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { CONCRETE_CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import {
  type LiveEvent,
  type LiveMarket,
  type Simulator,
  type SimulatorOptions,
  startSimulator,
  World,
} from '../../src/simulator/index.js';
import { market202602Schema, market202603Schema, orderBook202603Schema } from '../../src/wire/legacyShapes.js';
import { liveEventSchema, liveMarketSchema, liveOrderBookSchema } from '../../src/wire/liveShapes.js';
import { specEventSchema, specMarketSchema, specOrderBookSchema } from '../../src/wire/specShapes.js';
import { crawl, get } from './http.js';

let sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.stop()));
  sims = [];
});
const start = async (opts: SimulatorOptions) => {
  const sim = await startSimulator({ seed: 5, markets: 400, apiKey: 'test-key', rateLimit: { requests: 1_000_000 }, ...opts });
  sims.push(sim);
  return sim;
};
const listedEvents = async (sim: Simulator) => {
  const events: any[] = [];
  for (const provider of KNOWN_PROVIDERS) events.push(...(await crawl(sim, `/events?provider=${provider}&includeMarkets=true`, 20)).items);
  return events;
};

describe("'spec' profile", () => {
  it('renders exactly what a bare World renders, and has only documented categories', async () => {
    const sim = await start({ shape: 'spec' });
    const bare = new World({ seed: 5, markets: 400 });
    expect(sim.world.events().map((e) => sim.world.eventJson(e.eventId, { includeMarkets: true }))).toEqual(
      bare.events().map((e) => bare.eventJson(e.eventId, { includeMarkets: true })),
    );
    for (const e of sim.world.events()) expect(CONCRETE_CATEGORIES as readonly string[]).toContain(e.category);
    const open = sim.world.markets().find((m) => m.status === 'open' && m.hasBook)!;
    const eventId = open.eventId;
    expect((await get(sim, `/events/${eventId}?includeMarkets=true`)).text).toBe(
      JSON.stringify(sim.world.eventJson(eventId, { includeMarkets: true })),
    );
    expect((await get(sim, `/events/${eventId}`)).body).not.toHaveProperty('markets');
    expect((await get(sim, `/markets/${open.marketId}`)).text).toBe(JSON.stringify(sim.world.marketJson(open.marketId)));
    expect((await get(sim, `/orderbook/${open.marketId}`)).text).toBe(JSON.stringify(sim.world.orderBookJson(open.marketId)));
  });

  it('keeps the spec bytes of a seeded world (golden hash of the pre-profile output)', () => {
    const world = new World({ seed: 1, markets: 150 });
    world.step(7200);
    const json = JSON.stringify([
      world.events().map((e) => world.eventJson(e.eventId, { includeMarkets: true })),
      world.markets().map((m) => world.orderBookJson(m.marketId)),
    ]);
    // Computed before the shape profiles existed; a change here changes what spec-shape tests see.
    expect(createHash('sha256').update(json).digest('hex')).toBe(GOLDEN_SPEC_SHA256);
  });

  it('a bad shape is a RangeError naming it', () => {
    expect(() => new World({ shape: 'legacy' as 'spec' })).toThrow(new RangeError('shape must be one of live, spec, mixed, got "legacy"'));
  });
});

const eventAnyCategory = specEventSchema.extend({ category: z.string() });
const MARKET_SHAPES = {
  spec: specMarketSchema,
  '2026-02': market202602Schema,
  '2026-03': market202603Schema,
  live: liveMarketSchema,
} as const;
type Shape = keyof typeof MARKET_SHAPES;
const shapeOf = (m: unknown): Shape[] => (Object.keys(MARKET_SHAPES) as Shape[]).filter((k) => MARKET_SHAPES[k].safeParse(m).success);

describe("'mixed' profile", () => {
  it('sends each market in exactly one of the four shapes, all four occurring, stable per record', async () => {
    const sim = await start({ shape: 'mixed' });
    const markets = (await listedEvents(sim)).flatMap((e) => e.markets);
    const counts: Record<string, number> = {};
    for (const m of markets) {
      const shapes = shapeOf(m);
      expect(shapes, JSON.stringify(m)).toHaveLength(1);
      counts[shapes[0]!] = (counts[shapes[0]!] ?? 0) + 1;
    }
    for (const shape of Object.keys(MARKET_SHAPES)) expect(counts[shape] ?? 0, shape).toBeGreaterThan(markets.length / 10);
    // The same record keeps its shape on every request and in another simulator with the same seed.
    const twin = await start({ shape: 'mixed' });
    for (const m of markets.slice(0, 40)) {
      const detail = (await get(sim, `/markets/${m.marketId}`)).text;
      expect(shapeOf(JSON.parse(detail))).toEqual(shapeOf(m));
      expect((await get(twin, `/markets/${m.marketId}`)).text).toBe(detail);
    }
  });

  it("sends events in the spec-era and in today's shape", async () => {
    const sim = await start({ shape: 'mixed' });
    let spec = 0;
    let live = 0;
    for (const { markets: _markets, ...bare } of await listedEvents(sim)) {
      const isSpec = eventAnyCategory.safeParse(bare).success;
      const isLive = liveEventSchema.safeParse(bare).success;
      expect(isSpec !== isLive, JSON.stringify(bare)).toBe(true);
      if (isSpec) spec++;
      else live++;
    }
    expect(spec).toBeGreaterThan(5);
    expect(live).toBeGreaterThan(5);
  });

  it("sends each book in its market's era: spec, 2026-03 (descending, with dollars) or live (ascending)", async () => {
    const sim = await start({ shape: 'mixed' });
    const seen = new Set<string>();
    for (const m of sim.world
      .markets()
      .filter((x) => x.status === 'open' && x.hasBook)
      .slice(0, 150)) {
      const [shape] = shapeOf((await get(sim, `/markets/${m.marketId}`)).body);
      const book = (await get(sim, `/orderbook/${m.marketId}`)).body;
      const prices = (book.yes as number[][]).map(([p]) => p!);
      if (shape === 'spec' || shape === '2026-02') {
        expect(specOrderBookSchema.parse(book)).not.toHaveProperty('yes_dollars');
      } else if (shape === '2026-03') {
        orderBook202603Schema.parse(book);
        expect(prices).toEqual([...prices].sort((a, b) => b - a));
      } else {
        liveOrderBookSchema.parse(book);
        expect(prices).toEqual([...prices].sort((a, b) => a - b));
      }
      seen.add(shape === '2026-02' ? 'spec' : shape!);
    }
    expect([...seen].sort()).toEqual(['2026-03', 'live', 'spec']);
  });
});

describe('drift faults on top of the live profile', () => {
  it('change what the profile lacks and keep what it has', async () => {
    const sim = await start({ shape: 'live', faults: { driftRate: 1 } });
    const settled = sim.world.markets().find((m) => m.result !== null)!;
    const s = (await get(sim, `/markets/${settled.marketId}`)).body;
    expect(s.pricing.buyYesPriceUsd).toBe('0'); // pricesAsStrings
    expect(s.resolveAt).toBe((sim.world.marketBody(settled.marketId) as LiveMarket).resolveAt); // the live ISO value, not redone
    const open = sim.world.markets().find((m) => m.status === 'open' && m.hasBook)!;
    expect(['', 'pending']).toContain((await get(sim, `/markets/${open.marketId}`)).body.result); // legacyResult
    expect((await get(sim, `/orderbook/${open.marketId}`)).body).toEqual(sim.world.orderBookBody(open.marketId)); // bookDollars: already there
    const e = (await get(sim, `/events/${open.eventId}?includeMarkets=false`)).body;
    expect(e.volume24hr).toBe((sim.world.eventBody(open.eventId) as LiveEvent).volume24hr); // extraFields: kept
    expect(typeof e.volume24hr).toBe('string');
  });
});

const GOLDEN_SPEC_SHA256 = '69dcb241d39ed2e70c1c21c9f6d67bd9fa5a1319dacb20ce6de1803a5ea2ed1d';
