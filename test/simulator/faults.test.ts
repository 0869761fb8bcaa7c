import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

import { parseEvent, parseMarket } from '../../src/api/parse.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { serviceErrorBodySchema } from '../../src/wire/errorBodies.js';
import { specOrderBookSchema } from '../../src/wire/specShapes.js';
import { get } from './http.js';
import { simulatedSpecEventSchema, simulatedSpecMarketSchema } from './wireSchemas.js';

let sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.stop()));
  sims = [];
});
const start = async (opts: Parameters<typeof startSimulator>[0] = {}) => {
  const sim = await startSimulator({ shape: 'spec', seed: 21, markets: 300, apiKey: 'test-key', ...opts });
  sims.push(sim);
  return sim;
};

describe('request faults', () => {
  it('errorRate answers random 500/502/503 in the service shape, and can be switched off', async () => {
    const sim = await start({ faults: { errorRate: 1 } });
    const statuses = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const r = await get(sim, '/events');
      statuses.add(r.status);
      expect(serviceErrorBodySchema.parse(r.body).type).toBe('api_error');
    }
    expect([...statuses].sort()).toEqual([500, 502, 503]);
    // Injected 5xx count against the limit: the upstream spent the quota before failing.
    expect(sim.counters().accepted).toBe(30);
    sim.faults.set({ errorRate: 0 });
    expect((await get(sim, '/events')).status).toBe(200);
  });

  it('orderbookErrorRate fails only /orderbook with 502', async () => {
    const sim = await start({ faults: { orderbookErrorRate: 1 } });
    const market = sim.world.markets().find((m) => m.status === 'open')!;
    expect((await get(sim, `/orderbook/${market.marketId}`)).status).toBe(502);
    expect((await get(sim, `/markets/${market.marketId}`)).status).toBe(200);
  });

  it('a hung request never answers, and stop() still closes everything', async () => {
    const sim = await start({ faults: { hangRate: 1 } });
    const pending = request(`${sim.url}/events`, { headers: { 'x-api-key': 'test-key' } }).then(
      (r) => r.statusCode,
      (err: Error) => err.name,
    );
    await expect.poll(() => sim.requests.length).toBe(1);
    expect(sim.requests[0]).toMatchObject({ outcome: 'hung', status: null, accepted: true });
    await sim.stop();
    expect(await pending).toMatch(/Error/);
  });

  it('latency delays the answer but it arrives', async () => {
    const sim = await start({ faults: { latencyMs: 30, latencyJitterMs: 20 } });
    const r = await get(sim, '/events');
    expect(r.status).toBe(200);
    expect(sim.requests[0]!.finishedMs! - sim.requests[0]!.timeMs).toBeGreaterThanOrEqual(29);
  });

  it('stop() resolves while requests sit in a latency delay', async () => {
    const sim = await start({ faults: { latencyMs: 60_000 } });
    const pending = get(sim, '/events').catch((err: Error) => err.name);
    await expect.poll(() => sim.requests.length).toBe(1);
    await sim.stop();
    expect(await pending).toMatch(/Error/);
  });

  it('rejects out-of-range fault settings without changing anything', () => {
    return start().then((sim) => {
      expect(() => sim.faults.set({ errorRate: 1.5 })).toThrow(/errorRate/);
      expect(() => sim.faults.set({ driftKinds: ['nope' as never] })).toThrow(/driftKinds/);
      expect(sim.faults.get().errorRate).toBe(0);
    });
  });
});

describe('record faults', () => {
  it('malformedRate breaks listed records only, the same way on every request and run', async () => {
    const sim = await start({ faults: { malformedRate: 1 } });
    const twin = await start({ faults: { malformedRate: 1 } });
    const r = await get(sim, '/events?includeMarkets=true');
    for (const e of r.body.data) {
      expect(simulatedSpecEventSchema.safeParse(e).success).toBe(false);
      // Unreadable for the tolerant reader too: a defect is never a mere unfamiliar value.
      expect(parseEvent(e, { provider: null }).ok).toBe(false);
      for (const m of e.markets) {
        expect(simulatedSpecMarketSchema.safeParse(m).success).toBe(false);
        expect(parseMarket(m, { eventId: null }).ok).toBe(false);
      }
    }
    expect((await get(sim, '/events?includeMarkets=true')).text).toBe(r.text);
    expect((await get(twin, '/events?includeMarkets=true')).text).toBe(r.text);
    const defects = JSON.stringify(r.body);
    expect(defects).toContain('"tomorrow"');
    expect(defects).toContain('\\u0000');
    // Detail endpoints stay clean.
    // (A record whose defect is its id cannot be asked for by id.)
    const marketId = r.body.data
      .flatMap((e: { markets: { marketId: unknown }[] }) => e.markets)
      .find((m: { marketId: unknown }) => typeof m.marketId === 'string').marketId;
    simulatedSpecMarketSchema.parse((await get(sim, `/markets/${marketId}`)).body);
    const eventId = r.body.data.find((e: { eventId: unknown }) => typeof e.eventId === 'string').eventId;
    simulatedSpecEventSchema.parse((await get(sim, `/events/${eventId}`)).body);
  });

  it('malformedRate 0.3 breaks about that share, deterministically by id', async () => {
    const sim = await start({ faults: { malformedRate: 0.3 } });
    const { data } = (await get(sim, '/events?start=0&end=20&includeMarkets=true')).body;
    const markets = data.flatMap((e: { markets: unknown[] }) => e.markets);
    const bad = markets.filter((m: unknown) => !simulatedSpecMarketSchema.safeParse(m).success).length;
    expect(bad).toBeGreaterThan(0);
    expect(bad).toBeLessThan(markets.length);
  });

  it('nullBookRate answers null books', async () => {
    const sim = await start({ faults: { nullBookRate: 1 } });
    const market = sim.world.markets().find((m) => m.status === 'open' && m.hasBook)!;
    expect((await get(sim, `/orderbook/${market.marketId}`)).text).toBe('null');
    sim.faults.set({ nullBookRate: 0 });
    specOrderBookSchema.parse((await get(sim, `/orderbook/${market.marketId}`)).body);
  });

  it('drift emits the upstream drifted shapes, kind by kind', async () => {
    const sim = await start({ faults: { driftRate: 1 } });
    const open = sim.world.markets().find((m) => m.status === 'open' && m.hasBook)!;
    const settled = sim.world.markets().find((m) => m.result !== null)!;
    const eventId = sim.world.listEvents({ provider: 'polymarket', category: 'all' })[0]!.eventId;

    sim.faults.set({ driftKinds: ['pricesAsStrings', 'legacyResult', 'resolveAt'] });
    const m = (await get(sim, `/markets/${open.marketId}`)).body;
    expect(typeof m.pricing.buyYesPriceUsd).toBe('string');
    expect(Number(m.pricing.buyYesPriceUsd)).toBe(open.askMicroUsd);
    expect(['', 'pending']).toContain(m.result);
    expect(m).not.toHaveProperty('settlementTime');
    expect(m.resolveAt).toBeNull();
    const s = (await get(sim, `/markets/${settled.marketId}`)).body;
    expect(s.result).toBe(settled.result);
    expect([settled.settlementTimeSec, new Date(settled.settlementTimeSec * 1000).toISOString()]).toContain(s.resolveAt);

    sim.faults.set({ driftKinds: ['flatMarkets'] });
    const flat = (await get(sim, `/markets/${open.marketId}`)).body;
    expect(flat).not.toHaveProperty('metadata');
    expect(flat.title).toBe(open.title);

    sim.faults.set({ driftKinds: ['bookDollars'] });
    const book = (await get(sim, `/orderbook/${open.marketId}`)).body;
    const prices = book.yes.map((l: number[]) => l[0]);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(book.yes_dollars[0][0]).toMatch(/^0\.\d{4}$/);

    sim.faults.set({ driftKinds: ['missingFields', 'extraFields'] });
    const e = (await get(sim, `/events/${eventId}`)).body;
    for (const gone of ['series', 'winner', 'tvlDollars']) expect(e).not.toHaveProperty(gone);
    expect(e).toMatchObject({ provider: 'polymarket', tags: [e.category, e.subcategory] });
    expect(typeof e.volume24hr).toBe('number');
  });
});

describe('scheduled faults', () => {
  it('hold over the set ones for their stretch of the world’s time: a change that lasts, an outage that ends', async () => {
    const sim = await start({
      faults: { latencyMs: 1 },
      faultSchedule: [
        { fromSec: 600, faults: { driftRate: 1, driftKinds: ['newMarketField'] } },
        { fromSec: 1200, untilSec: 1800, faults: { errorRate: 1 } },
      ],
    });
    const market = sim.world.markets()[0]!;
    const reply = () => get(sim, `/markets/${market.marketId}`);
    expect((await reply()).body).not.toHaveProperty('feeBps');
    sim.world.step(599);
    expect((await reply()).body).not.toHaveProperty('feeBps');
    sim.world.step(1);
    expect((await reply()).body).toMatchObject({ feeBps: expect.any(Number) });
    sim.world.step(600);
    expect([500, 502, 503]).toContain((await reply()).status);
    expect(sim.faults.get()).toMatchObject({ errorRate: 1, driftRate: 1, latencyMs: 1 });
    // The settings set meanwhile are the base, under what the schedule holds.
    sim.faults.set({ errorRate: 0, latencyMs: 0 });
    expect(sim.faults.get()).toMatchObject({ errorRate: 1, latencyMs: 0 });
    sim.world.step(600);
    const after = await reply();
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ feeBps: expect.any(Number) });
    sim.faults.reset();
    expect((await reply()).body).not.toHaveProperty('feeBps');
  });

  it('rejects an entry that ends before it starts, or holds a bad setting', async () => {
    await expect(start({ faultSchedule: [{ fromSec: 60, untilSec: 60, faults: {} }] })).rejects.toThrow(/faultSchedule\[0\]\.untilSec/);
    await expect(start({ faultSchedule: [{ fromSec: -1, faults: {} }] })).rejects.toThrow(/faultSchedule\[0\]\.fromSec/);
    await expect(
      start({
        faultSchedule: [
          { fromSec: 0, faults: {} },
          { fromSec: 0, faults: { errorRate: 2 } },
        ],
      }),
    ).rejects.toThrow(/faultSchedule\[1\]: faults\.errorRate/);
  });
});
