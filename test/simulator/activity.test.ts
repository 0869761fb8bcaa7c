import { describe, expect, it } from 'vitest';

import { World } from '../../src/simulator/index.js';

describe('heavy-tailed activity', () => {
  it('changes books at Zipf rates, some moving the listed prices and some only deeper levels, and records every state', () => {
    const world = new World({ seed: 5, markets: 300, shape: 'live', newEventsPerDay: 0, activity: { busiestPerSec: 0.5, topShare: 0.5 } });
    const open = world.markets().filter((m) => m.status === 'open' && m.hasBook);
    const rates = open.map((m) => world.activity!.rateOf(m.marketId)!).sort((a, b) => b - a);
    // A market without a book is not tradable: it draws no activity and no truth.
    const bookless = world.markets().filter((m) => m.status === 'open' && !m.hasBook);
    expect(bookless.length).toBeGreaterThan(0);
    for (const m of bookless) expect(world.activity!.rateOf(m.marketId)).toBeUndefined();
    expect(rates[0]).toBeCloseTo(0.5, 9);
    expect(rates[9]).toBeCloseTo(0.05, 9);
    const initial = world.activity!.truth.entries().length;
    expect(initial).toBe(open.length);

    for (let s = 0; s < 1200; s++) world.step(1);
    const entries = world.activity!.truth.entries().slice(initial);
    expect(entries.filter((e) => bookless.some((m) => m.marketId === e.marketId))).toEqual([]);
    const busiest = open.find((m) => world.activity!.rateOf(m.marketId) === rates[0])!.marketId;
    const changesOf = (id: string) => entries.filter((e) => e.marketId === id).length;
    // 600 changes expected at 0.5/s over 1,200 s.
    expect(changesOf(busiest)).toBeGreaterThan(500);
    expect(changesOf(busiest)).toBeLessThan(700);
    const total = rates.reduce((a, b) => a + b, 0) * 1200;
    expect(entries.length).toBeGreaterThan(total * 0.85);
    expect(entries.length).toBeLessThan(total * 1.15);

    // Deeper-level changes keep the listed prices; each state recorded is what the server sends.
    const mine = entries.filter((e) => e.marketId === busiest);
    const deep = mine.filter((e, i) => i > 0 && !e.movedTop);
    expect(deep.length).toBeGreaterThan(200);
    for (const e of deep) {
      const before = mine[mine.indexOf(e) - 1]!;
      expect([e.bidMicroUsd, e.askMicroUsd]).toEqual([before.bidMicroUsd, before.askMicroUsd]);
    }
    expect(deep).toContainEqual(
      expect.toSatisfy((e: (typeof deep)[number]) => e.bookJson !== mine[mine.indexOf(e) - 1]!.bookJson, 'a new book'),
    );
    expect(mine.at(-1)!.bookJson).toBe(JSON.stringify(world.orderBookBody(busiest)));
    expect(mine.filter((e) => e.movedTop).length).toBeGreaterThan(200);
  });

  it('gives traded volume and volume24hr in proportion to activity', () => {
    const world = new World({ seed: 9, markets: 400, shape: 'live', activity: { busiestPerSec: 1 } });
    const open = world.markets().filter((m) => m.status === 'open' && m.hasBook && world.nowSec - m.openTimeSec > 86_400);
    const perSec = (m: (typeof open)[number]) => m.volumeCenti / 100 / (world.nowSec - m.openTimeSec);
    const ratio = open.map((m) => perSec(m) / world.activity!.rateOf(m.marketId)!);
    // Each market's volume per second over its rate is the same (mean contracts a change x topShare) to rounding.
    const mean = ratio.reduce((a, b) => a + b, 0) / ratio.length;
    for (const r of ratio) expect(Math.abs(r - mean) / mean).toBeLessThan(0.05);
    const events = world
      .events()
      .filter((e) => e.isActive && e.marketIds.length === 1 && world.activity!.rateOf(e.marketIds[0]!) !== undefined);
    const body = (id: string) => world.eventBody(id) as { volume24hr: string };
    const busy = events.reduce((a, b) => (world.activity!.rateOf(a.marketIds[0]!)! > world.activity!.rateOf(b.marketIds[0]!)! ? a : b));
    const quiet = events.reduce((a, b) => (world.activity!.rateOf(a.marketIds[0]!)! < world.activity!.rateOf(b.marketIds[0]!)! ? a : b));
    expect(Number(body(busy.eventId).volume24hr)).toBeGreaterThan(Number(body(quiet.eventId).volume24hr));
  });

  it('lists events by volume24hr, busiest first, as the service sorts by default', () => {
    const world = new World({ seed: 4, markets: 300, shape: 'live', activity: { busiestPerSec: 1 } });
    const listed = world.listEvents({ provider: 'polymarket', category: 'all', sortBy: 'volume24hr' });
    const day = listed.map((e) => Number((world.eventBody(e.eventId) as { volume24hr: string }).volume24hr));
    expect(listed.length).toBeGreaterThan(10);
    for (let i = 1; i < day.length; i++) expect(day[i]).toBeLessThanOrEqual(day[i - 1]!);
    expect(day[0]).toBeGreaterThan(day.at(-1)!);
    const ascending = world.listEvents({ provider: 'polymarket', category: 'all', sortBy: 'volume24hr', sortDirection: 'asc' });
    expect(ascending.map((e) => e.eventId)).toEqual([...listed].reverse().map((e) => e.eventId));
  });

  it('leaves the default world as it was: no activity, no truth', () => {
    const a = new World({ seed: 3, markets: 100 });
    const b = new World({ seed: 3, markets: 100 });
    expect(a.activity).toBeUndefined();
    a.step(3600);
    b.step(3600);
    expect(a.markets().map((m) => [m.bidMicroUsd, m.bookVersion])).toEqual(b.markets().map((m) => [m.bidMicroUsd, m.bookVersion]));
  });
});
