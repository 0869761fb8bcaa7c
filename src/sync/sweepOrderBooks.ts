import { ENDPOINTS } from '../api/endpoints/requests.js';
import { withStatementDeadline } from '../db/withStatementDeadline.js';
import type { TradedBook } from '../domain/types.js';
import { linkSignals } from '../signals/linkSignals.js';
import { selectBookCandidates } from '../sql/targets/selectBookCandidates.js';
import { selectOrderBookTargets } from '../sql/targets/selectSyncTargets.js';
import { OrderBookWriter } from '../store/OrderBookWriter.js';
import type { FetchedOrderBooks } from '../store/writeOrderBooks.js';
import { scheduleBooks } from './bookSchedule.js';
import { BOOKS_PER_FETCH, booksPerBatch } from './booksPerBatch.js';
import { fetchInBatches } from './fetchInBatches.js';
import { handOverAtMs } from './handOverAtMs.js';
import { planEndMs, type PlanSpan } from './planEndMs.js';
import type { SyncContext } from './SyncContext.js';
import type { TradedBooks } from './TradedBooks.js';
import { tradeWorthFetching } from './tradeWorthFetching.js';
import { UnavailableBooks } from './unavailableBooks.js';

export interface SweepOptions {
  /** Books fetched at most; null: every open market. */
  limit: number | null;
  /** Books older than this come first, so each open market is visited at least once per period. Default 3600. */
  maxAgeSec?: number;
  /**
   * The next tick of the sweep's schedule: at handOverAtMs before it, requests still waiting for
   * the rate limit are dropped (never sent), what arrived is written and the sweep ends. With
   * fetchesPerSec, it plans again on the way (planEndMs.ts: every 10 s, or 50 fetches).
   */
  deadline?: Date;
  /** Levels gathered before a write. Default LEVELS_PER_WRITE; tests lower it to write several batches. */
  levelsPerWrite?: number;
  /** How long a paced sweep plans for, at the least (planEndMs.ts). Default PLAN_SPAN; tests shorten it. */
  planSpan?: PlanSpan;
  /**
   * Book fetches a second this sweep can expect to send (the plan's rate less what the other jobs
   * take). With a deadline, the fetches are laid out to it by bookSchedule.ts, hot books several
   * times within the sweep; without this rate each open market is fetched once, in that schedule's order.
   */
  fetchesPerSec?: number;
  /**
   * Markets found to have moved while the sweep runs (the busiest events' listing, read alongside
   * it: readHotListings), busiest first, each with when the move was observed (ms): once it
   * resolves they are fetched next, ahead of the rest of the order, which loses as many of its
   * last targets. A rejection is ignored here (its reader reports it).
   */
  movers?: Promise<ReadonlyMap<string, number>>;
  /**
   * New trades of the feed, told while the sweep runs (its job in this process): the book of a
   * market that traded since it was last fetched goes next while the state the trade left likely
   * still holds (tradeWorthFetching.ts), in place of its next fetch in the plan.
   */
  traded?: TradedBooks;
}

/**
 * Levels gathered before a write. Books are small (tens of levels), and a transaction has a fixed
 * cost (lock, snapshot statement, COPY set-up, commit), so several fetch batches are written
 * together, each book with its own fetch's time. 50k levels hold the write lock for tens of
 * milliseconds (bench/levels.ts: about 25 ms into fresh tables). The sweep holds up to two such
 * batches: one being written, one gathered and prepared (OrderBookWriter).
 */
export const LEVELS_PER_WRITE = 50_000;

/**
 * What a rejected book counts toward LEVELS_PER_WRITE. It holds its payload until the write, cut
 * to LIMITS.rejectedPayloadChars of JSON (about 2 MB once parsed, as much as the largest valid
 * book): so at most ten wait for each of the two batches the sweep holds, however large the books
 * the upstream sends.
 */
export const REJECTED_BOOK_LEVELS = LEVELS_PER_WRITE / 10;

// Also here for the callers of these two: booksPerBatch.ts holds them, apart from the work.
export { BOOKS_PER_FETCH, booksPerBatch };

/**
 * Books one fetch batch holds: booksPerBatch, or for a paced sweep about a quarter second of its
 * fetches (at least 2). The answers of a batch that arrive within ARRIVAL_GROUP_MS are stamped
 * with the last arrival: over a batch paced across a whole second, a book that changes every few
 * seconds was often stamped after it had changed again. And a book is listed at most once a batch,
 * so a small batch lets the schedule fetch a hot book several times a second.
 */
export function sweepBatch(batchSize: number, fetchesPerSec: number | undefined): number {
  const most = booksPerBatch(batchSize);
  return fetchesPerSec === undefined ? most : Math.max(2, Math.min(most, Math.round(fetchesPerSec / 4)));
}

/** How much faster than its expected rate a scheduled sweep paces its fetches (PACE_HEADROOM × fetchesPerSec). */
export const PACE_HEADROOM = 1.1;

/** Waits `ms` (nothing if not positive), or until `signal` aborts; never rejects. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 || signal?.aborted === true) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Longest delay a timer takes (2^31 - 1 ms, 24.8 days): a deadline further away is no deadline. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Aborts at `atMs` (a plan's end, the last one's the hand-over); `dispose` clears the timer. A
 * timer rather than AbortSignal.timeout: that takes whole milliseconds only, and runs on a clock
 * tests cannot move.
 */
function endSignal(atMs: number): { signal?: AbortSignal; dispose: () => void } {
  const delayMs = atMs - Date.now();
  if (delayMs > MAX_TIMER_MS) return { dispose: () => {} };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('the sweep reached the end of its plan')), Math.max(0, delayMs));
  timer.unref();
  return { signal: controller.signal, dispose: () => clearTimeout(timer) };
}

/**
 * The market ids a sweep fetches, in order. Without a deadline (a one-off `sync`), every open
 * market once in priority order (selectOrderBookTargets). With one, the schedule of bookSchedule.ts
 * to `untilMs` (the plan's end): listed movers first, every book within the max age, the rest of
 * the budget by each book's estimated change rate (in proportion, F weighed beside Fv).
 */
async function sweepTargets(ctx: SyncContext, options: SweepOptions, untilMs: number): Promise<SweepPlan> {
  const maxAgeSec = options.maxAgeSec ?? 3600;
  const now = ctx.now();
  if (options.deadline === undefined) {
    const rows = await selectOrderBookTargets(ctx.sql, ctx.providers, { limit: options.limit, maxAgeSec, now });
    return { ids: rows.map((r) => r.marketId), movers: new Map(), known: new Map() };
  }
  const candidates = await selectBookCandidates(ctx.sql, ctx.providers, now);
  const horizonSec = Math.max(1, (untilMs - now.getTime()) / 1000);
  const once = options.fetchesPerSec === undefined;
  const schedule = scheduleBooks(candidates, {
    nowMs: now.getTime(),
    horizonSec,
    // Without a rate, as many fetches as markets: each once.
    fetchesPerSec: options.fetchesPerSec ?? Math.max(1, candidates.length) / horizonSec,
    maxAgeSec,
    batchSize: sweepBatch(ctx.batchSize, options.fetchesPerSec),
    once,
  });
  const ids = Array.from(schedule.order, (i) => candidates[i]!.marketId);
  const known = new Map(candidates.map((c, i) => [c.marketId, { ratePerSec: schedule.ratesPerSec[i]!, lastFetchedMs: c.lastFetchedMs }]));
  const movers = new Map(Array.from(schedule.movers, (i, k) => [candidates[i]!.marketId, schedule.moversToldAtMs[k]!]));
  return { ids: options.limit === null ? ids : ids.slice(0, options.limit), movers, known };
}

/** A plan's fetches in order, and what it knows of each open market (none for a sweep without a deadline). */
interface SweepPlan {
  ids: string[];
  /** Markets a change signal brought forward (their first fetch in `ids`), each with when its signal was told, ms. */
  movers: ReadonlyMap<string, number>;
  known: Map<string, { ratePerSec: number; lastFetchedMs: number | null }>;
}

/**
 * Fetches the order books of open markets in priority order (stale first, then volume, then
 * nearest close), writing them in transactions of about LEVELS_PER_WRITE levels (a crash loses at
 * most two of them, one being written and one gathered, fetched again next time). A paced sweep
 * plans again (planEndMs.ts), once what the last plan fetched is written. Returns how many
 * books were written. An abort writes what had arrived and returns. A book the upstream could not
 * fetch is skipped (UnavailableBooks).
 */
export async function sweepOrderBooks(ctx: SyncContext, options: SweepOptions): Promise<number> {
  if (ctx.signal?.aborted) return 0;
  const startMs = Date.now();
  const handOverMs = options.deadline === undefined ? Infinity : handOverAtMs(startMs, options.deadline.getTime());
  // A scheduled sweep sends its fetches evenly over its time, a little faster than its expected rate
  // (the client's queue still paces them): sent as fast as the rate limit allowed, they went out in
  // bursts, and a hot book fetched twice in one burst is fetched once for its information. Only a
  // sweep with both a deadline and a rate is paced, and planned again on the way.
  const pacedPerSec = options.deadline === undefined ? undefined : options.fetchesPerSec;
  const paceMs = pacedPerSec === undefined ? 0 : 1000 / (pacedPerSec * PACE_HEADROOM);
  const batchSize = sweepBatch(ctx.batchSize, pacedPerSec);
  // Only the ids of the current plan are held.
  let targets: string[] = [];
  let planned = 0;
  // Positions of the current plan sent (past their pace) so far: movers go right after them.
  let nextPosition = 0;
  // Markets whose next fetch a change signal brought forward, and the positions of the current
  // plan sent as such, each with when its signal was told: the writer counts these fetches apart
  // (changeRate.ts), with their lag behind the signal.
  const signalledNext = new Map<string, number>();
  let signalledPositions = new Map<number, number>();
  // A mover's fetch is brought forward: its next place in the plan goes to what follows it. A
  // market told twice keeps its first signal.
  const placeMovers = (told: Iterable<readonly [string, number]>) => {
    const at = Math.min(nextPosition, targets.length);
    const tail = targets.slice(at);
    const movers = new Map<string, number>();
    for (const [id, toldAtMs] of told) if (!movers.has(id)) movers.set(id, toldAtMs);
    for (const id of movers.keys()) {
      const later = tail.indexOf(id);
      if (later >= 0) tail.splice(later, 1);
    }
    const rest = [...movers.keys(), ...tail].slice(0, targets.length - at);
    for (const id of [...movers.keys()].slice(0, rest.length)) if (!signalledNext.has(id)) signalledNext.set(id, movers.get(id)!);
    for (let k = 0; k < rest.length; k++) targets[at + k] = rest[k]!;
  };
  // What the current plan knows of each market; a book's fetch sent by this plan is its latest.
  let known: SweepPlan['known'] = new Map();
  const worthFetching = (books: readonly TradedBook[]) => {
    const nowMs = ctx.now().getTime();
    const told: [string, number][] = [];
    for (const b of books) {
      const market = known.get(b.marketId);
      if (market && tradeWorthFetching(b.tradedAtMs, market.lastFetchedMs, market.ratePerSec, nowMs)) told.push([b.marketId, b.tradedAtMs]);
    }
    return told;
  };
  // Movers told of while no plan is being fetched (it is being made) wait for the next, and go first.
  let planning = true;
  let toldMovers: ReadonlyMap<string, number> = new Map();
  let toldTrades: TradedBook[] = [];
  options.movers?.then(
    (told) => (planning ? (toldMovers = told) : placeMovers(told)),
    () => {},
  );
  const unlisten = options.traded?.listen((books) => (planning ? toldTrades.push(...books) : placeMovers(worthFetching(books))));
  let done = 0;
  // The next batch is gathered and prepared while one commits (OrderBookWriter).
  const writer = new OrderBookWriter(ctx.sql, (counts, batch) => {
    ctx.totals.add(counts);
    done += batch.fetches.reduce((n, f) => n + f.books.length, 0);
    ctx.progress(`order books ${done}/${planned}`);
  });
  let pending: FetchedOrderBooks[] = [];
  let pendingLevels = 0;
  // Markets in `pending`: a book fetched again within one write is written first, so each state is kept.
  const pendingMarkets = new Set<string>();
  const flush = async () => {
    pendingMarkets.clear();
    if (pending.length === 0) return;
    const fetches = pending;
    pending = [];
    pendingLevels = 0;
    await writer.write({ runId: ctx.runId, endpoint: ENDPOINTS.getOrderBook, fetches, fence: ctx.fence });
  };
  const unavailable = new UnavailableBooks();
  // The first failure is the one reported: a write that failed ends the fetching at its next
  // batch, and wins over a failure of the fetching noticed after it.
  let failure: { error: unknown } | undefined;
  const levelsPerWrite = options.levelsPerWrite ?? LEVELS_PER_WRITE;
  let planningMs = 0;
  try {
    for (;;) {
      const planFromMs = Date.now();
      const untilMs = pacedPerSec === undefined ? handOverMs : planEndMs(planFromMs, handOverMs, planningMs, pacedPerSec, options.planSpan);
      const plan = await withStatementDeadline(ctx.sql, 'selecting order books to fetch', () => sweepTargets(ctx, options, untilMs));
      targets = plan.ids;
      known = plan.known;
      signalledNext.clear();
      for (const [id, toldAtMs] of plan.movers) signalledNext.set(id, toldAtMs);
      signalledPositions = new Map();
      planned += targets.length;
      nextPosition = 0;
      planning = false;
      placeMovers([...toldMovers, ...worthFetching(toldTrades)]);
      toldMovers = new Map();
      toldTrades = [];
      const fetchFromMs = Date.now();
      planningMs = fetchFromMs - planFromMs;
      // The plan's end (the last plan's: the hand-over) drops the sweep's own calls only, through a
      // view of the client; a stop of the run still drops them too.
      const end = endSignal(untilMs);
      const stop = linkSignals([ctx.signal, end.signal].filter((s): s is AbortSignal => s !== undefined));
      const client = ctx.client.withSignal(end.signal);
      try {
        await fetchInBatches(
          targets.map((_, i) => i),
          async (position) => {
            if (paceMs > 0) await pause(fetchFromMs + position * paceMs - Date.now(), stop.signal);
            // Read after the pause: a mover told of meanwhile may have taken this position.
            nextPosition = Math.max(nextPosition, position + 1);
            const marketId = targets[position]!;
            const toldAtMs = signalledNext.get(marketId);
            if (toldAtMs !== undefined) {
              signalledNext.delete(marketId);
              signalledPositions.set(position, toldAtMs);
            }
            const market = known.get(marketId);
            if (market) market.lastFetchedMs = ctx.now().getTime();
            const book = await client.getOrderBook(marketId);
            unavailable.answered();
            return book;
          },
          async (results, observedAt) => {
            writer.throwIfFailed();
            const books = results.map((r) => r.result);
            if (results.some((r) => pendingMarkets.has(targets[r.item]!))) await flush();
            for (const r of results) pendingMarkets.add(targets[r.item]!);
            const signalled = new Map<string, number>();
            for (const r of results) {
              const toldAtMs = signalledPositions.get(r.item);
              if (toldAtMs !== undefined) signalled.set(targets[r.item]!, toldAtMs);
            }
            pending.push({ books, observedAt, signalled });
            for (const b of books) pendingLevels += b.ok ? b.value.yes.length + b.value.no.length : REJECTED_BOOK_LEVELS;
            if (pendingLevels >= levelsPerWrite) await flush();
          },
          {
            batchSize,
            signal: stop.signal,
            now: ctx.now,
            onNotFound: () => void ctx.totals.notFound++,
            skipFailed: (position, error) => unavailable.skip(targets[position]!, error),
          },
        );
      } finally {
        end.dispose();
        stop.dispose();
      }
      // From here to the next plan, movers told of wait for it.
      planning = true;
      if (untilMs >= handOverMs || ctx.signal?.aborted === true) break;
      // The next plan reads these fetches' outcomes from the database.
      await flush();
      await writer.drain();
      // A plan whose list ran out before its end (a few markets) waits for it: planned again at
      // once, its books would be fetched as fast as the rate limit allowed.
      await pause(untilMs - Date.now(), ctx.signal);
    }
  } catch (error) {
    failure = writer.failure ?? { error: unavailable.outage(error) ?? error };
  } finally {
    unlisten?.();
    ctx.totals.unavailable += unavailable.skipped;
    if (unavailable.skipped > 0) {
      const books = unavailable.skipped === 1 ? 'order book was' : 'order books were';
      ctx.totals.notice(`${unavailable.skipped} ${books} skipped: the upstream answered 502 after every retry (fetched again next sweep)`);
    }
  }
  // What arrived is written, even after a failure of the fetching.
  try {
    await flush();
    await writer.drain();
  } catch (error) {
    failure ??= { error };
  }
  if (failure) throw failure.error;
  return done;
}
