import { describe, expect, it } from 'vitest';

import { Rng } from '../../src/simulator/world/prng.js';
import { allocateBooks, type BookCandidate, F_WEIGHT, scheduleBooks } from '../../src/sync/bookSchedule.js';
import { estimateChangeRate, type FetchEvidence, priorRates } from '../../src/sync/changeRate.js';
import { allocateFetchRates, freshShare, weightedFreshness } from '../../src/sync/fetchAllocation.js';
import { NO_EVIDENCE } from '../helpers/domainFixtures.js';

const NOW_MS = 1_800_000_000_000;

function candidate(marketId: string, over: Partial<BookCandidate> = {}): BookCandidate {
  return {
    marketId,
    lastFetchedMs: NOW_MS - 5_000,
    listedMovedAtMs: null,
    lastTradedMs: null,
    volumePerSec: 1,
    closeTimeMs: null,
    ...NO_EVIDENCE,
    ...over,
  };
}

/**
 * Evidence of `fetches` fetches of a book changing at `rate`/s, drawn from `rng`, every
 * `interval` seconds (or each `interval()` after the one before).
 */
function evidence(rng: Rng, rate: number, interval: number | (() => number), fetches: number): FetchEvidence {
  const e = { ...NO_EVIDENCE };
  for (let k = 0; k < fetches; k++) {
    const intervalSec = typeof interval === 'number' ? interval : interval();
    if (rng.next() < 1 - Math.exp(-rate * intervalSec)) {
      e.changedFetches += 1;
      e.changedIntervalSec += intervalSec;
    } else {
      e.unchangedFetches += 1;
      e.unchangedIntervalSec += intervalSec;
    }
  }
  return e;
}

const count = (order: Int32Array, i: number) => order.filter((x) => x === i).length;

describe('estimateChangeRate', () => {
  it('gives the prior alone, and the true rate from enough fetches whatever the prior', () => {
    const none = { ...NO_EVIDENCE };
    expect(estimateChangeRate(none, 0.25)).toBeCloseTo(0.25, 9);
    const rng = Rng.seeded(7);
    for (const [rate, interval] of [
      [0.5, 1],
      [0.05, 10],
      [0.001, 300],
    ] as const) {
      const e = evidence(rng, rate, interval, 4000) as typeof none;
      for (const prior of [rate * 20, rate / 20]) expect(estimateChangeRate(e, prior) / rate).toBeGreaterThan(0.9);
      for (const prior of [rate * 20, rate / 20]) expect(estimateChangeRate(e, prior) / rate).toBeLessThan(1.1);
    }
  });

  it('sets priors from traded volume, calibrated on the markets with evidence', () => {
    const rng = Rng.seeded(3);
    const known = { volumePerSec: 10, ...(evidence(rng, 0.2, 2, 3000) as Required<Pick<BookCandidate, 'changedFetches'>>) };
    const e0 = { ...NO_EVIDENCE };
    const priors = priorRates([{ ...e0, ...known } as never, { ...e0, volumePerSec: 1 }, { ...e0, volumePerSec: null }], {
      fallbackTotalPerSec: 5,
      floorPerSec: 1e-6,
    });
    // 0.2 changes/s for 10 volume/s: 0.02 per unit of volume.
    expect(priors[1]).toBeCloseTo(0.02, 2);
    expect(priors[2]).toBeCloseTo(0.02, 2);
    // A busy market whose every fetch found a change (2 changes/s, fetched every 10 s) bounds its
    // rate from below only: it does not pull the ratio down.
    const saturated = { ...NO_EVIDENCE, volumePerSec: 100, changedFetches: 30, changedIntervalSec: 300 };
    const withSaturated = priorRates([{ ...e0, ...known } as never, saturated, { ...e0, volumePerSec: 1 }], {
      fallbackTotalPerSec: 5,
      floorPerSec: 1e-6,
    });
    expect(withSaturated[2]).toBeCloseTo(0.02, 2);
    // No evidence anywhere: the rates add up to the fallback, in proportion to volume.
    const fresh = priorRates(
      [
        { ...e0, volumePerSec: 3 },
        { ...e0, volumePerSec: 1 },
      ],
      { fallbackTotalPerSec: 8, floorPerSec: 1e-6 },
    );
    expect([...fresh]).toEqual([6, 2]);
  });

  it("sets a market's prior from its fills where it has some, calibrated on the markets with evidence and fills", () => {
    const rng = Rng.seeded(5);
    // 0.2 changes/s and 0.1 fills/s: two changes a fill. Its volume says nothing of it.
    const known = { ...(evidence(rng, 0.2, 2, 3000) as FetchEvidence), volumePerSec: 1, tradesPerSec: 0.1 };
    const priors = priorRates([known, { ...NO_EVIDENCE, volumePerSec: 1, tradesPerSec: 0.3 }, { ...NO_EVIDENCE, volumePerSec: 1 }], {
      fallbackTotalPerSec: 5,
      floorPerSec: 1e-6,
    });
    expect(priors[1]! / 0.6).toBeGreaterThan(0.9);
    expect(priors[1]! / 0.6).toBeLessThan(1.1);
    // No fill seen: the volume's ratio (0.2 changes/s for 1 volume/s).
    expect(priors[2]! / 0.2).toBeGreaterThan(0.9);
    expect(priors[2]! / 0.2).toBeLessThan(1.1);
  });

  it("fits the ratio of changes to fills on every market's blind fetches, busy books whose every fetch changed among them", () => {
    // 40 markets of Zipf rates, two changes a fill, 15 fetches each every 14 s, a quarter 2 s after
    // the fetch before: the busy books' fetches nearly all find a change, and few markets have both outcomes.
    for (const seed of [1, 2, 3, 4, 5]) {
      const rng = Rng.seeded(seed);
      const markets = Array.from({ length: 40 }, (_, i) => {
        const rate = 0.5 / (i + 1);
        return { ...evidence(rng, rate, () => (rng.next() < 0.25 ? 2 : 14), 15), volumePerSec: 1, tradesPerSec: rate / 2 };
      });
      const priors = priorRates(markets, { fallbackTotalPerSec: 1, floorPerSec: 1e-9 });
      const ratio = priors[0]! / markets[0]!.tradesPerSec;
      expect(Math.abs(ratio / 2 - 1), `seed ${seed}: ${ratio}`).toBeLessThan(0.15);
    }
  });

  it('takes a market to change at least as often as it trades, whatever its fetches found', () => {
    // Every fetch, 30 s apart, found a change: a lower bound only, under its fills.
    const e = { ...NO_EVIDENCE, changedFetches: 10, changedIntervalSec: 300 };
    expect(estimateChangeRate({ ...e, tradesPerSec: 0.4 }, 0.01)).toBe(0.4);
    expect(estimateChangeRate({ ...e, tradesPerSec: 0 }, 0.01)).toBeLessThan(0.4);
  });
});

describe('allocateFetchRates', () => {
  it('spends the whole rate, in proportion to the change rates between floor and ceiling', () => {
    const rates = Float64Array.from([1, 0.5, 0.1, 0.0001]);
    const floors = new Float64Array(4).fill(0.01);
    const { fetchesPerSec } = allocateFetchRates(rates, floors, 10, 3);
    expect(fetchesPerSec.reduce((a, b) => a + b, 0)).toBeCloseTo(3, 3);
    expect(fetchesPerSec[3]).toBe(0.01);
    expect(fetchesPerSec[0]! / fetchesPerSec[1]!).toBeCloseTo(2, 6);
    expect(fetchesPerSec[1]! / fetchesPerSec[2]!).toBeCloseTo(5, 6);
  });

  it('spends the whole rate to a ten-thousandth over seeded worlds, every market between its bounds at one marginal value', () => {
    const rng = Rng.seeded(17);
    for (let world = 0; world < 50; world++) {
      const n = 1 + Math.floor(rng.next() * 300);
      const rates = Float64Array.from({ length: n }, () => (rng.next() < 0.1 ? 0 : 0.5 / (1 + Math.floor(rng.next() * n))));
      const ceiling = 0.05 + rng.next();
      // Some floors above the ceiling, as an even share is for a handful of markets.
      const floors = Float64Array.from({ length: n }, () => (rng.next() < 0.05 ? ceiling * 2 : rng.next() * 0.01));
      const floorSum = floors.reduce((a, b) => a + b, 0);
      // What the markets take at the most: a market that never changes keeps its floor.
      const most = floors.reduce((a, f, i) => a + (rates[i]! > 0 ? Math.max(f, ceiling) : f), 0);
      const total = floorSum + rng.next() * (most - floorSum) * 0.99;
      // Half the worlds weigh F too.
      const weight = world % 2 === 0 ? 0 : rng.next() * 0.05;
      const { fetchesPerSec, marginalValue } = allocateFetchRates(rates, floors, ceiling, total, weight);
      expect(Math.abs(fetchesPerSec.reduce((a, b) => a + b, 0) - total)).toBeLessThanOrEqual(1e-4 * total);
      const off = Array.from(fetchesPerSec).filter((f, i) => {
        if (f < floors[i]! || f > Math.max(floors[i]!, ceiling)) return true;
        if (f === floors[i]! || f === ceiling) return false;
        return Math.abs(((rates[i]! + weight) / rates[i]!) * gain(rates[i]! / f) - marginalValue) > 1e-6 * marginalValue;
      });
      expect(off).toEqual([]);
    }
  });

  it('gives fetches in proportion to the change rates without a weight on F, more a change to the quiet markets with one', () => {
    const rates = Float64Array.from({ length: 43 }, (_, i) => 0.5 / (i + 1));
    const floors = new Float64Array(43);
    const plain = allocateFetchRates(rates, floors, Infinity, 0.9).fetchesPerSec;
    for (let i = 1; i < 43; i++) expect(plain[i]! / rates[i]!).toBeCloseTo(plain[0]! / rates[0]!, 6);
    const weighted = allocateFetchRates(rates, floors, Infinity, 0.9, 0.5 * mean(rates)).fetchesPerSec;
    for (let i = 1; i < 43; i++) expect(weighted[i]! / rates[i]!).toBeGreaterThan(weighted[i - 1]! / rates[i - 1]!);
  });

  it('maximises Σ (λ + c)·G: no fetch moved between two markets raises it', () => {
    const rates = Float64Array.from({ length: 43 }, (_, i) => 0.5 / (i + 1));
    const floors = new Float64Array(43).fill(0.005);
    const weight = 0.5 * mean(rates);
    const { fetchesPerSec } = allocateFetchRates(rates, floors, 0.2, 0.9, weight);
    const objective = (f: Float64Array) => f.reduce((a, fi, i) => a + (rates[i]! + weight) * freshShare(rates[i]!, fi), 0);
    const at = objective(fetchesPerSec);
    for (let from = 0; from < 43; from++)
      for (let to = 0; to < 43; to++) {
        const moved = Float64Array.from(fetchesPerSec);
        const delta = Math.min(1e-3, moved[from]! - floors[from]!, 0.2 - moved[to]!);
        if (from === to || delta <= 0) continue;
        moved[from]! -= delta;
        moved[to]! += delta;
        expect(objective(moved)).toBeLessThanOrEqual(at + 1e-9);
      }
  });

  it('buys F with a weight on it for a little Fv (Zipf rates, the capture bench at 60 and 600 requests a minute)', () => {
    for (const [n, total] of [
      [43, 0.9],
      [600, 9],
    ] as const) {
      const rates = Float64Array.from({ length: n }, (_, i) => 0.5 / (i + 1));
      const floors = new Float64Array(n).fill((0.5 * total) / n);
      const plain = allocateFetchRates(rates, floors, Infinity, total).fetchesPerSec;
      const weighted = allocateFetchRates(rates, floors, Infinity, total, 0.5 * mean(rates)).fetchesPerSec;
      expect(freshness(rates, weighted)).toBeGreaterThan(freshness(rates, plain));
      expect(weightedFreshness(rates, weighted)).toBeLessThan(weightedFreshness(rates, plain));
      expect(weightedFreshness(rates, weighted)).toBeGreaterThan(0.95 * weightedFreshness(rates, plain));
    }
  });

  it('beats uniform fetching on Fv for Zipf rates (the known-rate optimum of the same fetches)', () => {
    const rates = Float64Array.from({ length: 600 }, (_, i) => 0.5 / (i + 1));
    const total = 10.18;
    const best = allocateFetchRates(rates, new Float64Array(600), Infinity, total);
    const uniform = new Float64Array(600).fill(total / 600);
    // The reference world's round-robin gives 0.494; at the optimum every market has the same
    // x = λ/f = Σλ/R, so Fv = G = (1 − e^(−x))/x.
    const x = rates.reduce((a, b) => a + b, 0) / total;
    expect(weightedFreshness(rates, uniform)).toBeCloseTo(0.494, 2);
    expect(weightedFreshness(rates, best.fetchesPerSec)).toBeCloseTo(-Math.expm1(-x) / x, 4);
    expect(weightedFreshness(rates, best.fetchesPerSec)).toBeGreaterThan(0.84);
    expect(freshShare(1, 1)).toBeCloseTo(1 - Math.exp(-1), 9);
  });
});

describe('scheduleBooks', () => {
  const options = { nowMs: NOW_MS, horizonSec: 10, fetchesPerSec: 10, maxAgeSec: 3600, batchSize: 4 };

  it('puts listed movers first, then never-fetched markets, then the most overdue', () => {
    const cs = [
      candidate('overdue', { lastFetchedMs: NOW_MS - 3_700_000, volumePerSec: 0.001 }),
      candidate('new', { lastFetchedMs: null }),
      candidate('moved', { listedMovedAtMs: NOW_MS - 1_000, volumePerSec: 0.001 }),
      ...Array.from({ length: 20 }, (_, i) => candidate(`q${i}`, { lastFetchedMs: NOW_MS - 1_000, volumePerSec: 0.001 })),
    ];
    const { order } = scheduleBooks(cs, options);
    expect(Array.from(order.slice(0, 3), (i) => cs[i]!.marketId)).toEqual(['moved', 'new', 'overdue']);
  });

  it('tells when each mover was signalled: the listing that showed the move, the fill, the earlier of the two', () => {
    const rng = Rng.seeded(17);
    // Quiet books, whose state a fill left likely still holds.
    const quiet = (id: string, over: Partial<BookCandidate>) =>
      candidate(id, { volumePerSec: 0.001, lastFetchedMs: NOW_MS - 20_000, ...evidence(rng, 0.002, 60, 40), ...over });
    const cs = [
      quiet('listed', { listedMovedAtMs: NOW_MS - 4_000 }),
      quiet('traded', { lastTradedMs: NOW_MS - 3_000 }),
      quiet('both', { listedMovedAtMs: NOW_MS - 2_000, lastTradedMs: NOW_MS - 6_000 }),
      quiet('neither', {}),
    ];
    const { movers, moversToldAtMs } = scheduleBooks(cs, options);
    const told = new Map(Array.from(movers, (i, k) => [cs[i]!.marketId, NOW_MS - moversToldAtMs[k]!]));
    expect(told).toEqual(
      new Map([
        ['listed', 4_000],
        ['traded', 3_000],
        ['both', 6_000],
      ]),
    );
  });

  it('puts first a quiet book that traded since its last fetch, not a busy one whose state has likely moved on', () => {
    const rng = Rng.seeded(13);
    const quiet = (id: string, over: Partial<BookCandidate>) =>
      candidate(id, { volumePerSec: 0.001, lastFetchedMs: NOW_MS - 20_000, ...evidence(rng, 0.002, 60, 40), ...over });
    const cs = [
      ...Array.from({ length: 20 }, (_, i) => quiet(`q${i}`, {})),
      quiet('traded', { lastTradedMs: NOW_MS - 3_000 }),
      // A trade before its last fetch is in the book already.
      quiet('traded-before', { lastTradedMs: NOW_MS - 30_000 }),
      candidate('busy-traded', {
        volumePerSec: 1,
        lastFetchedMs: NOW_MS - 3_000,
        lastTradedMs: NOW_MS - 2_500,
        ...evidence(rng, 0.5, 2, 400),
      }),
    ];
    const ids = Array.from(scheduleBooks(cs, options).order, (i) => cs[i]!.marketId);
    expect(ids[0]).toBe('traded');
    const first = (id: string) => ids.indexOf(id);
    expect(first('traded-before')).toBeGreaterThan(0);
    expect(first('busy-traded')).toBeGreaterThan(0);
    // Without its trade, the same book waits its turn.
    const untraded = cs.map((c) => (c.marketId === 'traded' ? { ...c, lastTradedMs: null } : c));
    expect(Array.from(scheduleBooks(untraded, options).order, (i) => untraded[i]!.marketId)[0]).not.toBe('traded');
  });

  it('fetches the hottest books several times within one sweep, never twice in one batch, in proportion to activity', () => {
    const rng = Rng.seeded(11);
    const cs = Array.from({ length: 200 }, (_, i) => {
      const rate = 0.5 / (i + 1);
      return candidate(`m${i}`, { volumePerSec: rate, lastFetchedMs: NOW_MS - rng.next() * 20_000, ...evidence(rng, rate, 5, 50) });
    });
    const { order } = scheduleBooks(cs, options);
    // The list covers the horizon and a spare half.
    expect(order.length).toBe(150);
    expect(count(order, 0)).toBeGreaterThan(5);
    expect(count(order, 0)).toBeGreaterThan(count(order, 9));
    expect(count(order, 199)).toBe(0);
    for (let p = 0; p < order.length; p++) {
      for (let q = p + 1; q < Math.min(order.length, p + 4); q++) expect(order[q]).not.toBe(order[p]);
    }
  });

  it('weighs F beside Fv: every market weighted by its estimated rate and F_WEIGHT times their mean', () => {
    const rng = Rng.seeded(23);
    const cs = Array.from({ length: 60 }, (_, i) => {
      const rate = 0.5 / (i + 1);
      return candidate(`m${i}`, { volumePerSec: rate, ...evidence(rng, rate, 20, 60) });
    });
    const { ratesPerSec, floorsPerSec, allocation } = allocateBooks(cs, options);
    const ceiling = options.fetchesPerSec / options.batchSize;
    const meanRate = mean(ratesPerSec);
    expect(allocation.fetchesPerSec).toEqual(
      allocateFetchRates(ratesPerSec, floorsPerSec, ceiling, options.fetchesPerSec, F_WEIGHT * meanRate).fetchesPerSec,
    );
    expect(allocation.fetchesPerSec).not.toEqual(
      allocateFetchRates(ratesPerSec, floorsPerSec, ceiling, options.fetchesPerSec).fetchesPerSec,
    );
  });

  it('keeps a busy book at its rate while a backlog of overdue quiet books drains', () => {
    const rng = Rng.seeded(5);
    // 300 quiet books fetched together about a period ago, all due again now (as after a start),
    // overdue by up to half their period, and one busy book fetched just now that changes every 2 s.
    const quiet = Array.from({ length: 300 }, (_, i) => candidate(`q${i}`, { volumePerSec: 0.001, ...evidence(rng, 0.001, 60, 20) }));
    const busy = candidate('busy', { volumePerSec: 1, lastFetchedMs: NOW_MS, ...evidence(rng, 0.5, 0.5, 400) });
    const periodMs = allocateBooks([busy, ...quiet], options).allocation.fetchesPerSec.map((f) => 1000 / f);
    const cs = [busy, ...quiet.map((c, i) => ({ ...c, lastFetchedMs: NOW_MS - periodMs[i + 1]! * (1 + i / 600) }))];
    const { order, allocation } = scheduleBooks(cs, options);
    const share = allocation.fetchesPerSec[0]! / options.fetchesPerSec;
    // Its share of the slots over the sweep's horizon, not one fetch after the whole backlog.
    const horizon = options.fetchesPerSec * options.horizonSec;
    expect(share * horizon).toBeGreaterThan(10);
    expect(count(order.slice(0, horizon), 0)).toBeGreaterThanOrEqual(Math.floor(share * horizon) - 1);
    // The quiet books fill the other slots, first the one whose fetch is due to be done soonest (due time plus period).
    const soonest = quiet
      .map((_, i) => i + 1)
      .sort((a, b) => cs[a]!.lastFetchedMs! + 2 * periodMs[a]! - (cs[b]!.lastFetchedMs! + 2 * periodMs[b]!))[0];
    expect(order.find((i) => i !== 0)).toBe(soonest);
  });

  it('keeps every open market within the max age, and a market near its close fetched more often', () => {
    const cs = [
      // Enough markets that an even share's floor (EVEN_FLOOR_SHARE) is every 100 s.
      ...Array.from({ length: 300 }, (_, i) => candidate(`hot${i}`, { volumePerSec: 100, lastFetchedMs: NOW_MS - 1000 })),
      candidate('stale', { volumePerSec: 1e-9, lastFetchedMs: NOW_MS - 3_600_001 }),
      candidate('closing', { volumePerSec: 1e-9, lastFetchedMs: NOW_MS - 31_000, closeTimeMs: NOW_MS + 120_000 }),
      candidate('far', { volumePerSec: 1e-9, lastFetchedMs: NOW_MS - 31_000, closeTimeMs: NOW_MS + 86_400_000 }),
    ];
    const { order } = scheduleBooks(cs, options);
    const ids = Array.from(order, (i) => cs[i]!.marketId);
    expect(ids).toContain('stale');
    expect(ids).toContain('closing');
    expect(ids).not.toContain('far');
  });

  it('lists each market once, all of them, without a rate (once)', () => {
    const cs = Array.from({ length: 50 }, (_, i) => candidate(`m${i}`, { volumePerSec: 1 / (i + 1) }));
    const { order } = scheduleBooks(cs, { ...options, fetchesPerSec: 5, once: true });
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});

/** h(x) = 1 − (1 + x)e^(−x): a further fetch's gain in fresh share, times λ, at x = λ/f. */
function gain(x: number): number {
  return -Math.expm1(-x) - x * Math.exp(-x);
}

function mean(xs: Float64Array): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** F: the mean fresh share. */
function freshness(rates: Float64Array, fetchesPerSec: Float64Array): number {
  return rates.reduce((a, r, i) => a + freshShare(r, fetchesPerSec[i]!), 0) / rates.length;
}
