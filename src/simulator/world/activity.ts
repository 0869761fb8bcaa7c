/**
 * Heavy-tailed activity, on request (WorldOptions.activity): each open market's book changes as a
 * Poisson process whose rate follows a Zipf law over the tradable markets (the busiest at
 * `busiestPerSec`, the k-th at busiestPerSec / k^zipfExponent), in place of the default world's
 * uniform trades. A change is a trade (`topShare` of them: the listed prices and volume move, as
 * trade.ts does) or a change of the book alone (new levels behind the same best prices, which
 * listings do not show). Traded volume and volume24hr follow the rate. Every state is recorded
 * in a TruthLog. The default world draws nothing of this, so it stays as it was.
 */
import { hash32, Rng } from './prng.js';
import type { SimEvent, SimMarket } from './simTypes.js';
import { TimeQueue } from './timeQueue.js';
import { trade } from './trade.js';
import { TruthLog } from './truthLog.js';
import type { WorldState } from './worldState.js';

export interface ActivityOptions {
  /** Change rate of the busiest market, per simulated second. */
  busiestPerSec: number;
  /** Exponent of the Zipf law of the rates over the markets. Default 1. */
  zipfExponent?: number;
  /** Share of changes that are trades (move the listed prices); the rest change deeper levels only. Default 0.5. */
  topShare?: number;
  /** Truth entries kept (oldest dropped beyond). Default 1,000,000. */
  truthLimit?: number;
  /** The truth log's clock, ms. Default: simulated time. A benchmark against a real-time world passes the wall clock. */
  clockMs?: () => number;
}

/** Mean contracts of a trade (trade.ts: 1 + floor(e^(7u)), u uniform): (e^7 − 1)/7 + 1/2, about 157. */
const MEAN_CONTRACTS = Math.expm1(7) / 7 + 0.5;
const DAY_SEC = 86_400;

export function validateActivity(o: ActivityOptions): Required<Omit<ActivityOptions, 'clockMs'>> & Pick<ActivityOptions, 'clockMs'> {
  const positive = (name: string, v: number) => {
    if (!(v > 0) || !Number.isFinite(v)) throw new RangeError(`activity.${name} must be a positive number, got ${v}`);
    return v;
  };
  const topShare = o.topShare ?? 0.5;
  if (!(topShare >= 0 && topShare <= 1)) throw new RangeError(`activity.topShare must be within [0, 1], got ${topShare}`);
  return {
    busiestPerSec: positive('busiestPerSec', o.busiestPerSec),
    zipfExponent: positive('zipfExponent', o.zipfExponent ?? 1),
    topShare,
    truthLimit: o.truthLimit ?? 1_000_000,
    clockMs: o.clockMs,
  };
}

export class Activity {
  readonly truth: TruthLog;
  readonly #o: ReturnType<typeof validateActivity>;
  readonly #rng: Rng;
  readonly #rates = new Map<string, number>();
  readonly #queue = new TimeQueue<'change'>();
  /** Ranks of the initial open markets: a later market draws its rank among them. */
  #ranks = 1;

  /** `bookBody` renders a market's book as the server sends it (shapes/renderBodies.ts's orderBookBody), for the truth log. */
  readonly #bookBody: (m: SimMarket) => unknown;

  constructor(state: WorldState, options: ActivityOptions, bookBody: (m: SimMarket) => unknown) {
    this.#bookBody = bookBody;
    this.#o = validateActivity(options);
    this.truth = new TruthLog(this.#o.truthLimit);
    this.#rng = Rng.seeded(hash32(state.seed, 'activity'));
    // A random order of the open markets gives their Zipf ranks. A market without a book is not
    // tradable (wire.ts's isTradable): nothing can fill against it, so it draws no activity.
    const open = [...state.openMarkets].filter((m) => m.hasBook);
    for (let i = open.length - 1; i > 0; i--) {
      const j = Math.floor(this.#rng.next() * (i + 1));
      [open[i], open[j]] = [open[j]!, open[i]!];
    }
    this.#ranks = Math.max(1, open.length);
    open.forEach((m, i) => this.#admit(state, m, i + 1));
  }

  /** The market's change rate per simulated second; undefined for a market never open under this activity. */
  rateOf(marketId: string): number | undefined {
    return this.#rates.get(marketId);
  }

  /** Applies the changes due by `untilSec` in time order (state.nowSec is already there); adds the markets that traded. */
  advance(state: WorldState, untilSec: number, traded: Set<string>): void {
    for (const m of state.openMarkets) if (m.hasBook && !this.#rates.has(m.marketId)) this.#admit(state, m, this.#rng.int(1, this.#ranks));
    for (let due = this.#queue.popDue(untilSec); due; due = this.#queue.popDue(untilSec)) {
      const m = state.marketsById.get(due.id)!;
      if (m.status !== 'open') continue;
      const movedTop = this.#rng.chance(this.#o.topShare);
      if (movedTop) trade(state, m);
      else m.bookVersion++;
      traded.add(m.marketId);
      this.#record(state, m, movedTop);
      this.#schedule(m, due.atSec);
    }
  }

  /** The event's traded dollars over a day at its markets' rates (whole dollars, micro-USD): live volume24hr. */
  volume24hrMicroUsd(state: WorldState, e: SimEvent): number {
    let micro = 0;
    for (const id of e.marketIds) {
      const m = state.marketsById.get(id)!;
      const rate = this.#rates.get(id);
      if (m.status === 'open' && rate !== undefined) micro += rate * this.#o.topShare * MEAN_CONTRACTS * DAY_SEC * m.askMicroUsd;
    }
    return Math.floor(micro / 1_000_000) * 1_000_000;
  }

  #admit(state: WorldState, m: SimMarket, rank: number): void {
    const rate = this.#o.busiestPerSec / rank ** this.#o.zipfExponent;
    this.#rates.set(m.marketId, rate);
    // Its volume so far, as if it had traded at this rate since it opened.
    const contracts = Math.round(rate * this.#o.topShare * MEAN_CONTRACTS * Math.max(0, state.nowSec - m.openTimeSec));
    const event = state.eventsById.get(m.eventId)!;
    const notional = contracts * m.askMicroUsd;
    event.volumeMicroUsd += notional - m.notionalMicroUsd;
    m.notionalMicroUsd = notional;
    m.volumeCenti = contracts * 100;
    this.#record(state, m, false);
    this.#schedule(m, state.nowSec);
  }

  #schedule(m: SimMarket, fromSec: number): void {
    const rate = this.#rates.get(m.marketId)!;
    this.#queue.push({ atSec: fromSec + this.#rng.exponential() / rate, kind: 'change', id: m.marketId });
  }

  #record(state: WorldState, m: SimMarket, movedTop: boolean): void {
    this.truth.add({
      atMs: this.#o.clockMs ? this.#o.clockMs() : state.nowSec * 1000,
      marketId: m.marketId,
      bookJson: JSON.stringify(this.#bookBody(m)),
      bidMicroUsd: m.bidMicroUsd,
      askMicroUsd: m.askMicroUsd,
      movedTop,
    });
  }
}
