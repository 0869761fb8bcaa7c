import type { IncomingHttpHeaders } from 'node:http';

import { firstHeader, resetAtMs as readResetAtMs } from './rateLimitWaitMs.js';

/** The gateway's window as its answers describe it (x-ratelimit-remaining, -current, -reset). */
export interface ServerWindowSnapshot {
  /** Requests the window allows: the most `current + remaining` any answer reported. */
  requests: number;
  /** Its length in seconds, estimated from the reset of the answers that opened a window; null until one did. */
  windowSec: number | null;
  /** `requests` per minute at that length; null while the length is unknown. */
  requestsPerMinute: number | null;
  /** What the latest answer left of the current window, and when that window ends (epoch ms). */
  remaining: number;
  resetAtMs: number;
  /** When an answer last carried the headers (epoch ms). */
  observedAtMs: number;
}

/** What one answer said of the window: sends left after the request numbered `seq`. */
interface Told {
  seq: number;
  remaining: number;
}

interface Known {
  /** Epoch ms at which the window the latest answers described ends. */
  resetAtMs: number;
  /** Those answers that may still bound the sends, by request number; see #room. */
  told: Told[];
  /** What the answer read last said is left, for the snapshot. */
  lastRemaining: number;
}

/**
 * Paces sends on the headers of every answer, so that the limit is not found by hitting it: each
 * answer says how many requests its window has left and when it ends. A send may go while the
 * window the latest answers described has room for it, counting the sends made since each one's
 * request; when it has none, sends wait until it ends. Once it has ended nothing says how much the next
 * window holds (a fixed window is full again, a sliding one frees one slot at a time), so one
 * request goes first and its answer tells. A server that sends no such headers is not paced here
 * (the configured plan alone applies). The configured plan still applies on top: whichever is
 * tighter wins. Requests go out on several connections and reach the server in another order than
 * they were numbered, so an answer need not count every request numbered before it: while such a
 * request is unanswered it is taken as counted after (see #room).
 */
export class ServerWindow {
  /** Sends reserved so far, numbered from 1. */
  #seq = 0;
  #known: Known | null = null;
  /** The request sent to learn the next window, while it has not been answered. */
  #probe: number | null = null;
  #headersSeen = false;
  #requests = 0;
  #windowMs: number | null = null;
  #observedAtMs = 0;
  /** Send time of each request not yet answered: to estimate the window from the one that opens it, and for #room. */
  readonly #sentAtMs = new Map<number, number>();
  readonly #waiters = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Waits until a send may go and reserves it; returns its number, to hand to `answered` however
   * the attempt ends. Rejects with the signal's reason when it aborts while waiting.
   */
  async reserve(signal: AbortSignal): Promise<number> {
    for (;;) {
      signal.throwIfAborted();
      const nowMs = this.now();
      const waitMs = this.#waitMs(nowMs);
      if (waitMs === 0) {
        this.#seq += 1;
        if (this.#headersSeen && !this.#inWindow(nowMs)) this.#probe = this.#seq;
        this.#sentAtMs.set(this.#seq, nowMs);
        return this.#seq;
      }
      await this.#changed(waitMs, signal);
    }
  }

  /** Reads an answer's headers (undefined when the attempt got no answer) for the request numbered `seq`. */
  answered(seq: number, headers: IncomingHttpHeaders | undefined): void {
    const sentAtMs = this.#sentAtMs.get(seq);
    this.#sentAtMs.delete(seq);
    if (this.#probe === seq) this.#probe = null;
    const nowMs = this.now();
    const remaining = count(firstHeader(headers?.['x-ratelimit-remaining']));
    const resetAt = readResetAtMs(firstHeader(headers?.['x-ratelimit-reset']), nowMs);
    if (remaining !== undefined && resetAt !== undefined) this.#learn(seq, remaining, resetAt, headers, nowMs, sentAtMs);
    this.#notify();
  }

  snapshot(): ServerWindowSnapshot | null {
    if (!this.#headersSeen || !this.#known) return null;
    const windowSec = this.#windowMs === null ? null : wholeOrTenths(this.#windowMs / 1000);
    return {
      requests: this.#requests,
      windowSec,
      requestsPerMinute: windowSec === null || windowSec === 0 ? null : (this.#requests * 60) / windowSec,
      remaining: this.#known.lastRemaining,
      resetAtMs: this.#known.resetAtMs,
      observedAtMs: this.#observedAtMs,
    };
  }

  #learn(
    seq: number,
    remaining: number,
    resetAt: number,
    headers: IncomingHttpHeaders | undefined,
    nowMs: number,
    sentAtMs: number | undefined,
  ): void {
    this.#headersSeen = true;
    this.#observedAtMs = nowMs;
    const current = count(firstHeader(headers?.['x-ratelimit-current']));
    this.#requests = Math.max(this.#requests, current === undefined ? remaining : current + remaining);
    // The answer that opened its window: the reset is one window after its arrival (about its send).
    if (current === 1 && sentAtMs !== undefined) {
      const estimate = resetAt - sentAtMs;
      if (estimate > 0) this.#windowMs = this.#windowMs === null ? estimate : Math.min(this.#windowMs, estimate);
    }
    const known = this.#known;
    // A window's end only moves forward in the order the server counts; an answer about an earlier one is stale.
    if (!known || resetAt > known.resetAtMs) {
      this.#known = { resetAtMs: resetAt, told: [{ seq, remaining }], lastRemaining: remaining };
    } else if (resetAt === known.resetAtMs) {
      const at = known.told.findIndex((t) => t.seq > seq);
      known.told.splice(at === -1 ? known.told.length : at, 0, { seq, remaining });
      known.lastRemaining = remaining;
    }
  }

  /**
   * Sends the known window still has room for, for certain. An answer to request `t` leaves
   * `remaining` after the requests the server counted up to `t`: every request numbered after `t`
   * may come on top, and so may any numbered before it and not answered yet. The answer the server
   * counted last among those read gives a true bound that way; which one that was is not known,
   * so the least over the window's answers is taken. For two answers `a < b`, b's bound less a's
   * only grows (the requests between them unanswered only get fewer), so once b's is not the
   * lower it never will be again and b is dropped: the list stays short.
   */
  #room(known: Known): number {
    const unanswered = [...this.#sentAtMs.keys()];
    let least = Number.POSITIVE_INFINITY;
    known.told = known.told.filter((t) => {
      const earlierUnanswered = unanswered.filter((seq) => seq < t.seq).length;
      const room = t.remaining - (this.#seq - t.seq) - earlierUnanswered;
      if (room >= least) return false;
      least = room;
      return true;
    });
    return least;
  }

  #inWindow(nowMs: number): boolean {
    return this.#known !== null && nowMs < this.#known.resetAtMs;
  }

  /** 0 when a send may go now; otherwise how long to wait at most before looking again (Infinity: until an answer). */
  #waitMs(nowMs: number): number {
    if (!this.#headersSeen) return 0;
    if (this.#inWindow(nowMs)) {
      const known = this.#known!;
      return this.#room(known) > 0 ? 0 : known.resetAtMs - nowMs;
    }
    return this.#probe === null ? 0 : Number.POSITIVE_INFINITY;
  }

  #notify(): void {
    for (const wake of [...this.#waiters]) wake();
  }

  #changed(waitMs: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        done();
        reject(signal.reason);
      };
      this.#waiters.add(done);
      signal.addEventListener('abort', onAbort, { once: true });
      // Deliberately not unref'd: a CLI waiting out the window has nothing else keeping it alive.
      if (Number.isFinite(waitMs)) timer = setTimeout(done, Math.max(1, Math.ceil(waitMs)));
    });
  }
}

function count(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Whole seconds from 2 s up, tenths below, rounded down: the estimate is the window plus the
 * request's trip plus up to a second lost to a reset written in whole seconds, never less.
 */
function wholeOrTenths(sec: number): number {
  return sec >= 2 ? Math.floor(sec) : Math.floor(sec * 10) / 10;
}

/**
 * The warning for a configured plan above what the server grants (its window's requests per
 * minute), or null when the plan is the tighter or the window is not known yet.
 */
export function planAboveServer(planRequestsPerMinute: number, server: ServerWindowSnapshot | null): string | null {
  if (server?.requestsPerMinute === null || server?.requestsPerMinute === undefined || server.requestsPerMinute >= planRequestsPerMinute)
    return null;
  return (
    `the configured plan (${Math.round(planRequestsPerMinute)} requests/min, PREDICTION_RATE_LIMIT_RPM) is above what the server grants ` +
    `(${server.requests} requests per ${server.windowSec} s, about ${Math.round(server.requestsPerMinute)}/min): the server's window paces the requests`
  );
}
