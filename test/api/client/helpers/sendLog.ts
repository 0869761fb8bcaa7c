import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import type { ClientLogger } from '../../../../src/api/client/index.js';

/**
 * Instruments a client: an undici interceptor stamps every send with an `x-test-seq` header and
 * records when it left; a logger records when the client closed its gate after each 429.
 * Together with the server's arrival log they show whether anything left during a pause.
 */
/** Epoch ms with sub-millisecond precision, comparable with threadedServer's arrival times. */
export const preciseNowMs = (): number => performance.timeOrigin + performance.now();

export function sendLog() {
  const sentAtMs: number[] = [];
  /**
   * One per 429 the client acted on: the gate was closed over [closedFromMs, pausedUntilMs), as
   * reported by the client itself (timing the log call instead would be late whenever the thread
   * is descheduled between closing the gate and logging it).
   */
  const pauses: { target: string; waitMs: number; closedFromMs: number; pausedUntilMs: number }[] = [];
  const lines: string[] = [];
  const interceptor: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
    const seq = sentAtMs.length;
    sentAtMs.push(preciseNowMs());
    const headers = { ...(opts.headers as Record<string, string>), 'x-test-seq': String(seq) };
    return dispatch({ ...opts, headers }, handler);
  };
  const record = (level: string) => (obj: object, msg: string) => {
    lines.push(JSON.stringify({ level, msg, ...obj }));
    const f = obj as { target?: string; waitMs?: number; pausedUntilMs?: number };
    if (msg.startsWith('rate limited') && f.target !== undefined && f.waitMs !== undefined && f.pausedUntilMs !== undefined) {
      // The client's times are Date.now(); the sends are stamped on the monotonic clock, which
      // drifts from it by milliseconds over a long run. Put the pause on the sends' clock.
      const untilMs = f.pausedUntilMs - (Date.now() - preciseNowMs());
      pauses.push({ target: f.target, waitMs: f.waitMs, closedFromMs: untilMs - f.waitMs, pausedUntilMs: untilMs });
    }
  };
  const logger: ClientLogger = { debug: record('debug'), info: record('info'), warn: record('warn') };
  /** Sends strictly inside a pause, give or take `toleranceMs` of clock granularity at each end. */
  const sentDuring = (pause: { closedFromMs: number; pausedUntilMs: number }, toleranceMs = 1) =>
    sentAtMs.filter((t) => t > pause.closedFromMs + toleranceMs && t < pause.pausedUntilMs - toleranceMs);
  return { sentAtMs, pauses, lines, interceptor, logger, sentDuring };
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
