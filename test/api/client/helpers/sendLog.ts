import { performance } from 'node:perf_hooks';

import type { Dispatcher } from 'undici';

import type { ClientLogger } from '../../../../src/api/client/index.js';

/** Epoch ms with sub-millisecond precision, comparable with threadedServer's arrival times. */
export const preciseNowMs = (): number => performance.timeOrigin + performance.now();

/**
 * Instruments a client: an undici interceptor stamps every send with an `x-test-seq` header and
 * records when it left; a logger records when the client closed its gate after each 429.
 * Together with the server's arrival log they show whether anything left during a pause.
 */
export function sendLog() {
  const sentAtMs: number[] = [];
  /** Sends made while the client itself said it was paused (see `watch`). */
  const sentWhilePausedMs: number[] = [];
  let isPaused: () => boolean = () => false;
  /**
   * One per 429 the client acted on. `closedFromMs` is when the client logged it, on the sends'
   * clock: the gate is closed by then (the log call follows the close in the same synchronous
   * step), and a late log only narrows the window, never puts a legitimate send inside it.
   * Derived from `pausedUntilMs - waitMs` (wall clock, rounded up, then converted) it was once
   * 2 ms early under load, and sends that had left before the 429 looked like sends in the pause.
   */
  const pauses: { target: string; waitMs: number; closedFromMs: number; pausedUntilMs: number }[] = [];
  const lines: string[] = [];
  const interceptor: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
    const seq = sentAtMs.length;
    const atMs = preciseNowMs();
    sentAtMs.push(atMs);
    if (isPaused()) sentWhilePausedMs.push(atMs);
    const headers = { ...(opts.headers as Record<string, string>), 'x-test-seq': String(seq) };
    return dispatch({ ...opts, headers }, handler);
  };
  const record = (level: string) => (obj: object, msg: string) => {
    const loggedAtMs = preciseNowMs();
    lines.push(JSON.stringify({ level, msg, ...obj }));
    const f = obj as { target?: string; waitMs?: number; pausedUntilMs?: number };
    if (msg.startsWith('rate limited') && f.target !== undefined && f.waitMs !== undefined && f.pausedUntilMs !== undefined) {
      // The client's times are Date.now(); the sends are stamped on the monotonic clock, which
      // drifts from it by milliseconds over a long run. Put the pause's end on the sends' clock.
      const untilMs = f.pausedUntilMs - (Date.now() - preciseNowMs());
      pauses.push({ target: f.target, waitMs: f.waitMs, closedFromMs: loggedAtMs, pausedUntilMs: untilMs });
    }
  };
  const logger: ClientLogger = { debug: record('debug'), info: record('info'), warn: record('warn') };
  /** Sends strictly inside a pause, give or take `toleranceMs` of clock granularity at each end. */
  const sentDuring = (pause: { closedFromMs: number; pausedUntilMs: number }, toleranceMs = 1) =>
    sentAtMs.filter((t) => t > pause.closedFromMs + toleranceMs && t < pause.pausedUntilMs - toleranceMs);
  /**
   * From now on, each send also asks the client whether it is paused (`stats().pausedUntilMs`):
   * a check on the client's own clock, free of the conversion between clocks above.
   */
  const watch = (client: { stats(): { pausedUntilMs: number | null } }) => {
    isPaused = () => client.stats().pausedUntilMs !== null;
  };
  return { sentAtMs, sentWhilePausedMs, pauses, lines, interceptor, logger, sentDuring, watch };
}

/** Largest number of timestamps inside any half-open window [t, t + windowMs) starting at one of them. */
export function maxInAnyWindow(timesMs: number[], windowMs: number): number {
  const sorted = [...timesMs].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (j < sorted.length && sorted[j]! < sorted[i]! + windowMs) j++;
    max = Math.max(max, j - i);
  }
  return max;
}
