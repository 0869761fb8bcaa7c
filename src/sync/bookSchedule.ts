import { estimateChangeRate, type FetchEvidence, priorRates } from './changeRate.js';
import { allocateFetchRates, type Allocation } from './fetchAllocation.js';
import { tradeWorthFetching } from './tradeWorthFetching.js';

/**
 * The one order of the sweep's book fetches; `plan` predicts from the same pieces. Three rules,
 * in this order:
 * 1. A market whose listed prices changed since its book was last fetched is due first: every
 *    crawl brings each market's top of book for free, and a moved top means a changed book. So is
 *    one that traded since, while the state the trade left likely still holds (tradeWorthFetching.ts).
 * 2. Every open market is fetched at least every ORDERBOOK_MAX_AGE_SEC, and more often as its
 *    close nears (a quarter of the time left, down to the span the sweep plans for), so closing
 *    markets are not starved.
 * 3. The rest of the budget goes where the expected information per request, weighted by
 *    activity, is highest: the objective is Fv (fetchAllocation.ts), whose best division gives
 *    each market fetches in proportion to its change rate, with F beside it at a fixed weight
 *    (F_WEIGHT), which gives the quiet markets more. The rates are estimated from each market's
 *    own fetches (changeRate.ts) from a prior set by its fills in the trade feed, or its traded
 *    volume.
 * The fetches of the coming sweep are then laid out in time: each market at its last fetch plus
 * its interval 1/f, then every 1/f, in slots at the expected rate (scheduleBooks); the sweep sends
 * them in that order, so a market whose interval is shorter than the sweep's period is fetched
 * several times within the sweep.
 */

/** An open market as the sweep sees it (sql/targets/selectBookCandidates.ts). */
export interface BookCandidate extends FetchEvidence {
  marketId: string;
  /** When its latest book fetch arrived; null if never fetched. */
  lastFetchedMs: number | null;
  /** When the crawl saw its listed prices change after its latest book fetch; null if they did not. */
  listedMovedAtMs: number | null;
  /** When its latest fill in the trade feed was made (tradeWorthFetching.ts); null if none was seen. */
  lastTradedMs: number | null;
  /** Traded volume per second since it opened (its latest listed volume over its age); null if unknown. */
  volumePerSec: number | null;
  closeTimeMs: number | null;
}

export interface ScheduleOptions {
  nowMs: number;
  /** Seconds the sweep has to send its fetches (to its hand-over). */
  horizonSec: number;
  /** Book fetches a second the sweep is expected to send. */
  fetchesPerSec: number;
  /** ORDERBOOK_MAX_AGE_SEC: every open market at least this often. */
  maxAgeSec: number;
  /** Fetches sent together (one batch): a market is not fetched twice among this many. Default 16. */
  batchSize?: number;
  /** Fetches listed beyond what the horizon is expected to take, so a faster sweep does not run dry. Default 0.5. */
  spare?: number;
  /** Each market at most once, every one of them listed: the order without repeats. Default false. */
  once?: boolean;
}

export interface BookSchedule {
  /** Indexes into the candidates, in fetch order; a market may appear more than once. */
  order: Int32Array;
  /** Indexes of the candidates a change signal brings forward (rule 1): each one's first fetch in the order is the signalled one. */
  movers: Int32Array;
  /** When each mover's signal was told (moverToldAtMs), in the order of `movers`. */
  moversToldAtMs: Float64Array;
  /** Each candidate's estimated change rate, per second. */
  ratesPerSec: Float64Array;
  allocation: Allocation;
}

/**
 * Share of an even split of the fetches every market gets at least. Fetches in proportion to the
 * change rate maximise Fv but leave each quiet book fresh no more of the time than a hot one, below
 * what round-robin gives it (F). With a third of an even share, F measured 1-3 % under
 * round-robin's at 600 requests a minute (bench/capture.ts); half an even share costs about 2.5 %
 * of Fv at the optimum for known rates (a Zipf world of 600 markets: docs/scaling.md).
 */
export const EVEN_FLOOR_SHARE = 0.5;

/**
 * Weight of F beside Fv in the allocation's objective, Fv + F_WEIGHT·F: each market weighted by
 * its change rate plus F_WEIGHT times the mean rate (allocateFetchRates). A fetch is worth most
 * to F on a book that changes about twice between its fetches, and to Fv on the busiest. With Fv
 * alone F measured 0.94–1.06× round-robin's at 60 requests a minute, with half F 1.01–1.05×, Fv
 * within its spread (bench/README.md, "F weighed beside Fv"). With the rates known it costs
 * about half the Fv a point of F that raising the floors did at 60, a twentieth at 600
 * (bench/allocationChart.ts).
 */
export const F_WEIGHT = 0.5;

/** Change rates, floors and fetch rates of the candidates: the allocation `plan` and the sweep share. Pure. */
export function allocateBooks(
  candidates: readonly BookCandidate[],
  options: Pick<ScheduleOptions, 'nowMs' | 'horizonSec' | 'fetchesPerSec' | 'maxAgeSec' | 'batchSize'>,
): { ratesPerSec: Float64Array; floorsPerSec: Float64Array; allocation: Allocation } {
  const n = candidates.length;
  const floorPerSec = 1 / options.maxAgeSec;
  const priors = priorRates(candidates, { fallbackTotalPerSec: options.fetchesPerSec, floorPerSec: floorPerSec / 100 });
  const ratesPerSec = new Float64Array(n);
  const floorsPerSec = new Float64Array(n);
  // The shortest floor interval: the span planned for, as a closing market needs no more than a fetch a plan.
  const shortestSec = Math.min(options.maxAgeSec, Math.max(1, options.horizonSec));
  const evenFloorPerSec = n === 0 ? 0 : (EVEN_FLOOR_SHARE * options.fetchesPerSec) / n;
  for (let i = 0; i < n; i++) {
    const c = candidates[i]!;
    ratesPerSec[i] = estimateChangeRate(c, priors[i]!);
    let floorSec = options.maxAgeSec;
    if (c.closeTimeMs !== null) floorSec = Math.min(floorSec, Math.max(shortestSec, (c.closeTimeMs - options.nowMs) / 4000));
    floorsPerSec[i] = Math.max(1 / floorSec, evenFloorPerSec);
  }
  // A book is not fetched twice within one batch: its answers are written together, the later only.
  const ceilingPerSec = options.fetchesPerSec / (options.batchSize ?? 16);
  let rateSum = 0;
  for (let i = 0; i < n; i++) rateSum += ratesPerSec[i]!;
  const fWeightPerSec = n === 0 ? 0 : (F_WEIGHT * rateSum) / n;
  const allocation = allocateFetchRates(
    ratesPerSec,
    floorsPerSec,
    Math.max(ceilingPerSec, floorPerSec),
    options.fetchesPerSec,
    fWeightPerSec,
  );
  return { ratesPerSec, floorsPerSec, allocation };
}

/**
 * Orders the coming sweep's book fetches (see the rules above): listed movers first (busiest
 * first), then the fetches in time, as many as the horizon takes at the expected rate plus a
 * spare share. The list is laid out slot by slot at the expected rate: a market is eligible in a
 * slot once it is due (its last fetch plus 1/f), and among the eligible the one whose fetch is
 * due to be done soonest (its due time plus 1/f) goes first; when none is eligible, the next due.
 * Serving the most overdue first, as the sweep did, starved the busiest books whenever a backlog
 * formed (the floor fetches of markets first fetched together fall due together): each of their
 * fetches waited as long as the backlog's, so their interval grew by that wait every time, and
 * the capture bench saw the busiest book go 37 s without a fetch where it was due every 1.3 s.
 * Pure and deterministic; about O((markets + fetches) · log markets).
 */
export function scheduleBooks(candidates: readonly BookCandidate[], options: ScheduleOptions): BookSchedule {
  const { nowMs } = options;
  const n = candidates.length;
  const { ratesPerSec, allocation } = allocateBooks(candidates, options);
  const f = allocation.fetchesPerSec;
  const once = options.once ?? false;
  const wanted = once ? n : Math.ceil(options.fetchesPerSec * options.horizonSec * (1 + (options.spare ?? 0.5)));
  const slotMs = 1000 / options.fetchesPerSec;
  const periodMs = (i: number) => 1000 / f[i]!;

  // Each market's next due time; a listed mover's is -Infinity (first), a never-fetched market's
  // just after them; ties go to the busier market.
  const waiting = new MinHeap(n, ratesPerSec);
  const eligible = new MinHeap(n, ratesPerSec);
  const dueMs = new Float64Array(n);
  const movers: number[] = [];
  const moversToldAtMs: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = candidates[i]!;
    const toldAtMs = moverToldAtMs(c, ratesPerSec[i]!, nowMs);
    const moved = toldAtMs !== null;
    if (moved) {
      movers.push(i);
      moversToldAtMs.push(toldAtMs);
    }
    const due = moved ? -Infinity : c.lastFetchedMs === null ? -1e300 : c.lastFetchedMs + periodMs(i);
    dueMs[i] = due;
    // Every market, so the list never runs dry before the sweep's time is up: what is due later
    // follows what is due sooner. Those due already are eligible from the first slot (built in
    // one pass: moved one by one, 100,000 markets took 50 ms more, bench/bookOrder.ts).
    if (due <= nowMs) eligible.push(i, due + periodMs(i));
    else waiting.push(i, due);
  }
  waiting.heapify();
  eligible.heapify();
  const order: number[] = [];
  const batch = options.batchSize ?? 16;
  const lastAt = new Int32Array(n).fill(-batch);
  // Deferrals since the last fetch listed: more than the heaps hold means every market left is in the batch.
  let deferred = 0;
  while (order.length < wanted && waiting.size + eligible.size > 0 && deferred <= waiting.size + eligible.size) {
    const slot = nowMs + order.length * slotMs;
    while (waiting.size > 0 && waiting.peekKey() <= slot) {
      const i = waiting.pop();
      eligible.add(i, dueMs[i]! + periodMs(i));
    }
    const i = eligible.size > 0 ? eligible.pop() : waiting.pop();
    // A fetch too close to the same market's previous one (in one batch) moves after it.
    const gap = order.length - lastAt[i]!;
    if (gap < batch) {
      deferred += 1;
      dueMs[i] = Math.max(dueMs[i]!, slot) + (batch - gap) * slotMs;
      waiting.add(i, dueMs[i]!);
      continue;
    }
    deferred = 0;
    lastAt[i] = order.length;
    order.push(i);
    if (once) continue;
    // From its slot when served late, so a late market does not catch up in a burst.
    const next = Math.max(dueMs[i]!, slot) + periodMs(i);
    if (!Number.isFinite(next)) continue;
    dueMs[i] = next;
    waiting.add(i, next);
  }
  return {
    order: Int32Array.from(order),
    movers: Int32Array.from(movers),
    moversToldAtMs: Float64Array.from(moversToldAtMs),
    ratesPerSec,
    allocation,
  };
}

/**
 * When the change signal that makes a market a mover (rule 1) was told: the crawl's observation of
 * its moved listed prices, or its latest fill if that came after its latest fetch and the state it
 * left likely still holds (tradeWorthFetching.ts), the earlier of the two; null when neither
 * holds. Pure.
 */
function moverToldAtMs(c: BookCandidate, ratePerSec: number, nowMs: number): number | null {
  const traded = c.lastTradedMs !== null && tradeWorthFetching(c.lastTradedMs, c.lastFetchedMs, ratePerSec, nowMs) ? c.lastTradedMs : null;
  if (c.listedMovedAtMs === null) return traded;
  return traded === null ? c.listedMovedAtMs : Math.min(traded, c.listedMovedAtMs);
}

/** A binary min-heap of market indexes by time, ties to the busier market (the higher of `rates`). */
class MinHeap {
  readonly #ids: Int32Array;
  readonly #keys: Float64Array;
  readonly #rates: Float64Array;
  #size = 0;

  constructor(capacity: number, rates: Float64Array) {
    this.#ids = new Int32Array(capacity);
    this.#keys = new Float64Array(capacity);
    this.#rates = rates;
  }
  get size(): number {
    return this.#size;
  }
  /** The least key; the heap must not be empty. */
  peekKey(): number {
    return this.#keys[0]!;
  }
  /** Appends without ordering; call heapify once after the pushes. */
  push(id: number, key: number): void {
    const at = this.#size++;
    this.#ids[at] = id;
    this.#keys[at] = key;
  }
  heapify(): void {
    for (let i = (this.#size >> 1) - 1; i >= 0; i--) this.#down(i);
  }
  add(id: number, key: number): void {
    this.push(id, key);
    this.#up(this.#size - 1);
  }
  pop(): number {
    const top = this.#ids[0]!;
    this.#size--;
    if (this.#size > 0) {
      this.#ids[0] = this.#ids[this.#size]!;
      this.#keys[0] = this.#keys[this.#size]!;
      this.#down(0);
    }
    return top;
  }
  #less(a: number, b: number): boolean {
    const ka = this.#keys[a]!;
    const kb = this.#keys[b]!;
    return ka < kb || (ka === kb && this.#rates[this.#ids[a]!]! > this.#rates[this.#ids[b]!]!);
  }
  #swap(a: number, b: number): void {
    const id = this.#ids[a]!;
    const key = this.#keys[a]!;
    this.#ids[a] = this.#ids[b]!;
    this.#keys[a] = this.#keys[b]!;
    this.#ids[b] = id;
    this.#keys[b] = key;
  }
  #up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(i, parent)) return;
      this.#swap(i, parent);
      i = parent;
    }
  }
  #down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < this.#size && this.#less(l, min)) min = l;
      if (r < this.#size && this.#less(r, min)) min = r;
      if (min === i) return;
      this.#swap(i, min);
      i = min;
    }
  }
}
