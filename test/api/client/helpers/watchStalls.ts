import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Watches how long the event loop is held up (a collection, the thread descheduled on a busy
 * machine) from now until `stop`, which returns the longest hold-up in ms (sampled every ms, so at
 * least 1). A send is stamped on its way out, after the limiter has let it go: a hold-up between
 * the two shifts a burst's stamps later, and can bunch them with the next window's by that much.
 */
export function watchStalls(): { stop: () => number } {
  const delays = monitorEventLoopDelay({ resolution: 1 });
  delays.enable();
  return {
    stop: () => {
      delays.disable();
      return delays.max / 1e6;
    },
  };
}
