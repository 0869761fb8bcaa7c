import { handOverAtMs } from '../sync/handOverAtMs.js';
import { JOB_NAMES, JOB_PRIORITY, type JobName } from '../sync/jobCatalog.js';

/**
 * What the replay is given: the client's limit, and for each job its ticks and what a run sends.
 * A crawl, trades or details run queues `requestsPerRun` requests at its tick; a sweep fetches
 * `targets` books in batches of `booksPerBatch`, as sweepOrderBooks does, and reads `listingPages`
 * pages of the busiest events one after the other alongside (readHotListings): with answers taken
 * to arrive at once, they go out first.
 */
export interface ReplayInput {
  /** The client's queue: at most `requests` sends in any `windowMs` (its window and its margin). */
  limit: { requests: number; windowMs: number };
  crawl: { ticksMs: readonly number[]; requestsPerRun: number };
  trades: { ticksMs: readonly number[]; requestsPerRun: number };
  details: { ticksMs: readonly number[]; requestsPerRun: number };
  orderbooks: { ticksMs: readonly number[]; targets: number; booksPerBatch: number; listingPages?: number };
  /** Requests sent and sweeps started from here on are reported; the replay before it fills the window as a running service has. */
  measureFromMs: number;
  endMs: number;
}

export interface ReplayedSweep {
  startMs: number;
  endMs: number;
  books: number;
  /** Ended by its deadline (the next tick) with targets left. */
  cutShort: boolean;
}

export interface ReplayResult {
  /** Requests each job sent in [measureFromMs, endMs). */
  requests: Record<JobName, number>;
  /** Of the sweeps' requests, the listing pages they read before their books. */
  sweepListingPages: number;
  /** Ticks in that span that found their job still running, and were skipped. */
  skippedTicks: Record<JobName, number>;
  ticks: Record<JobName, number>;
  /** Sweeps started in that span and finished before its end. */
  sweeps: ReplayedSweep[];
}

interface Tick {
  atMs: number;
  job: JobName;
  /** The job's next tick: a sweep's deadline. */
  nextMs: number;
}

/**
 * Replays the service's request budget tick by tick, as the code spends it: one queue that sends
 * the highest JOB_PRIORITY first and at most `limit.requests` in any window (p-queue, strict); a
 * tick that finds its job still running is skipped (node-cron's noOverlap, and the job's lease);
 * a sweep starts its next batch when the previous one has all arrived, and at its hand-over
 * (sweepOrderBooks' handOverAtMs, before its next tick) drops what it has not sent and ends. Answers are taken to arrive
 * at once: a slow upstream leaves less of a window to the sweep, never more. Pure and
 * deterministic; one step per request sent.
 */
export function replayRequestBudget(input: ReplayInput): ReplayResult {
  const { requests: cap, windowMs } = input.limit;
  const measured = (atMs: number) => atMs >= input.measureFromMs;
  const ticks = mergeTicks(input);
  const requests = zeroes();
  const skippedTicks = zeroes();
  const tickCounts = zeroes();
  const sweeps: ReplayedSweep[] = [];

  // Requests still to send by each job's current run; a sweep's are those of its batch in flight.
  const waiting = zeroes();
  const running: Record<JobName, boolean> = { crawl: false, trades: false, details: false, orderbooks: false };
  const sweep = { startMs: 0, handOverMs: 0, targetsLeft: 0, books: 0, pagesLeft: 0 };
  let sweepListingPages = 0;
  const nextBatch = () => {
    waiting.orderbooks = sweep.pagesLeft > 0 ? 1 : Math.min(input.orderbooks.booksPerBatch, sweep.targetsLeft);
  };
  const endSweep = (atMs: number) => {
    running.orderbooks = false;
    if (measured(sweep.startMs)) sweeps.push({ startMs: sweep.startMs, endMs: atMs, books: sweep.books, cutShort: sweep.targetsLeft > 0 });
  };

  const start = ({ job, atMs, nextMs }: Tick) => {
    if (measured(atMs)) tickCounts[job] += 1;
    if (running[job]) {
      if (measured(atMs)) skippedTicks[job] += 1;
      return;
    }
    if (job === 'orderbooks') {
      Object.assign(sweep, {
        startMs: atMs,
        handOverMs: handOverAtMs(atMs, nextMs),
        targetsLeft: input.orderbooks.targets,
        books: 0,
        pagesLeft: input.orderbooks.listingPages ?? 0,
      });
      nextBatch();
      running.orderbooks = waiting.orderbooks > 0;
      if (!running.orderbooks) endSweep(atMs);
    } else {
      waiting[job] = input[job].requestsPerRun;
      running[job] = waiting[job] > 0;
    }
  };

  const sent = (job: JobName, atMs: number) => {
    waiting[job] -= 1;
    if (measured(atMs)) requests[job] += 1;
    if (job !== 'orderbooks') {
      running[job] = waiting[job] > 0;
      return;
    }
    if (sweep.pagesLeft > 0) {
      // A listing page: the next page, or the first books, once it has arrived.
      sweep.pagesLeft -= 1;
      if (measured(atMs)) sweepListingPages += 1;
    } else {
      sweep.targetsLeft -= 1;
      sweep.books += 1;
    }
    if (waiting.orderbooks > 0) return;
    // The batch has arrived: the next one starts.
    if (sweep.targetsLeft === 0) endSweep(atMs);
    else nextBatch();
  };

  // Send times within the window, oldest first (from `oldest` on).
  let window: number[] = [];
  let oldest = 0;
  let nowMs = -Infinity;
  let next = 0;
  for (;;) {
    const job = BY_PRIORITY.find((j) => waiting[j] > 0);
    let sendAtMs = Infinity;
    if (job !== undefined) {
      while (oldest < window.length && nowMs - window[oldest]! >= windowMs) oldest += 1;
      sendAtMs = window.length - oldest < cap ? nowMs : window[oldest]! + windowMs;
    }
    const tick = ticks[next];
    const tickAtMs = tick?.atMs ?? Infinity;
    // The sweep's hand-over comes before whatever is due at the same instant: its timer is set first.
    if (running.orderbooks && sweep.handOverMs <= Math.min(tickAtMs, sendAtMs) && sweep.handOverMs < input.endMs) {
      nowMs = sweep.handOverMs;
      waiting.orderbooks = 0;
      endSweep(nowMs);
      continue;
    }
    if (Math.min(tickAtMs, sendAtMs) >= input.endMs) break;
    // A tick due at the instant a slot frees comes first: its run is queued by then.
    if (tick && tickAtMs <= sendAtMs) {
      nowMs = tickAtMs;
      start(tick);
      next += 1;
      continue;
    }
    nowMs = sendAtMs;
    window.push(nowMs);
    if (oldest > 4096 && oldest > window.length / 2) [window, oldest] = [window.slice(oldest), 0];
    sent(job!, nowMs);
  }
  return { requests, sweepListingPages, skippedTicks, ticks: tickCounts, sweeps };
}

const BY_PRIORITY = [...JOB_NAMES].sort((a, b) => JOB_PRIORITY[b] - JOB_PRIORITY[a]);

function zeroes(): Record<JobName, number> {
  return { crawl: 0, trades: 0, details: 0, orderbooks: 0 };
}

/** Every job's ticks in time order; at one instant, the job of higher priority first. */
function mergeTicks(input: ReplayInput): Tick[] {
  const all = JOB_NAMES.flatMap((job) => {
    const at = input[job].ticksMs;
    return at.map((atMs, i) => ({ atMs, job, nextMs: at[i + 1] ?? Infinity }));
  });
  return all.sort((a, b) => a.atMs - b.atMs || JOB_PRIORITY[b.job] - JOB_PRIORITY[a.job]);
}
