/** Steps a world with the wall clock: every `stepEveryMs`, by the whole simulated seconds elapsed. */
import type { World } from './World.js';

export interface RealtimeDriver {
  stop(): void;
}

/**
 * `speed` is simulated seconds per real second (1 = real time, 60 = a minute per second).
 * Sub-second remainders carry over, so slow ticks lose no time.
 */
export function startRealtimeDriver(
  world: World,
  stepEveryMs: number,
  speed: number,
  nowMs: () => number,
  onError: (err: unknown) => void,
): RealtimeDriver {
  let lastMs = nowMs();
  let carrySec = 0;
  const timer = setInterval(() => {
    const now = nowMs();
    carrySec += ((now - lastMs) / 1000) * speed;
    lastMs = now;
    const whole = Math.floor(carrySec);
    if (whole < 1) return;
    carrySec -= whole;
    try {
      world.step(whole);
    } catch (err) {
      onError(err);
    }
  }, stepEveryMs);
  // The server keeps the process alive; the driver alone should not.
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
