/** Options of `startSimulator`, each with its default, and their validation. */
import { type ScheduledFaults, validateFaultSchedule } from './faults/faultSchedule.js';
import type { FaultSettings } from './faults/faultSettings.js';
import { type RateLimit, validateRateLimit } from './limits/slidingWindowLimiter.js';
import { DEFAULT_START_SEC, type WorldOptions } from './World.js';
import { validateWireShape, type WireShape } from './world/wireShape.js';

export type ClockMode = 'manual' | 'realtime';

export interface SimulatorOptions extends Omit<WorldOptions, 'shape' | 'servedSpeed'> {
  /**
   * Which upstream the JSON looks like: 'live' (what the live service sends today, with events in
   * categories outside the spec's list), 'spec' (the spec's shapes, as before profiles existed) or
   * 'mixed' (each record in one of the spec, 2026-02, 2026-03 and live shapes, by a hash of the
   * seed and its id). Record-level `faults.drift*` apply on top. Default 'live'.
   */
  shape?: WireShape;
  /** TCP port on 127.0.0.1; 0 picks a free port. Default 0. */
  port?: number;
  /** Expected `x-api-key`. Undefined: any non-empty key is accepted. Never logged. Default undefined. */
  apiKey?: string;
  /** Sliding window for keyed requests. Default { requests: 600, windowMs: 60_000 }. */
  rateLimit?: Partial<RateLimit>;
  /** Separate, lower window for requests without `x-api-key`. Default { requests: 60, windowMs: 60_000 }. */
  keylessRateLimit?: Partial<RateLimit>;
  /**
   * The gateway's window in front of the service, e.g. { requests: 5, windowMs: 4000 } (what the
   * live gateway allowed keyless): a fixed window whose x-ratelimit-* headers go out on every
   * answer, and whose 429 has no Retry-After and the gateway's body. Default none.
   */
  gatewayWindow?: RateLimit;
  /** Cap on end - start of list pages, and the page without `limit` or `end` (the server returns fewer than asked). Default 20. */
  maxPageSize?: number;
  /** Cap on a GET /events page asked for by `limit` (the service takes 1..100). Default 100. */
  maxLimit?: number;
  /** Send Retry-After / x-ratelimit-reset as decimal seconds (for short test windows). Default false. */
  subSecondRetryAfter?: boolean;
  /**
   * 'manual': simulated time moves only with `world.step()`, starting at `startSec` (default
   * 2026-01-01T00:00:00Z). 'realtime': the world steps itself every `stepEveryMs`, starting at
   * the real now unless `startSec` is given. Default 'manual'.
   */
  clock?: ClockMode;
  /** Real-time mode: how often the world steps, ms. Default 1000. */
  stepEveryMs?: number;
  /**
   * Real-time mode: simulated seconds per real second. Without `startSec` (the world starts at the
   * real now), the times it serves are the real instants at which the world reaches them
   * (world/servedTime.ts), so they agree with the clock of whoever polls it, and durations on the
   * wire are `speed` times shorter; with `startSec`, simulated times are served. Default 1.
   */
  speed?: number;
  /** Initial fault settings (all off by default); change later with `sim.faults.set()`. */
  faults?: Partial<FaultSettings>;
  /**
   * Fault settings that hold over `faults` for a stretch of the world's time (simulated seconds
   * since its start), e.g. a field the service starts sending, or an outage: the upstream changing
   * or failing at a known point of a run. `sim.faults.reset()` empties it. Default none.
   */
  faultSchedule?: readonly ScheduledFaults[];
  /** Request log capacity (oldest dropped). Default 200,000. */
  requestLogLimit?: number;
  /** Wall clock used by the rate limiter and the request log, ms. Default Date.now. */
  nowMs?: () => number;
}

export interface ResolvedOptions {
  world: WorldOptions & { startSec: number };
  port: number;
  apiKey: string | undefined;
  rateLimit: RateLimit;
  keylessRateLimit: RateLimit;
  gatewayWindow: RateLimit | undefined;
  maxPageSize: number;
  maxLimit: number;
  subSecondRetryAfter: boolean;
  clock: ClockMode;
  stepEveryMs: number;
  speed: number;
  faults: Partial<FaultSettings>;
  faultSchedule: readonly ScheduledFaults[];
  requestLogLimit: number;
  nowMs: () => number;
}

const DEFAULT_WINDOW_MS = 60_000;

export function positiveInt(name: string, v: number): number {
  if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer, got ${v}`);
  return v;
}

export function resolveOptions(o: SimulatorOptions): ResolvedOptions {
  const nowMs = o.nowMs ?? Date.now;
  const clock = o.clock ?? 'manual';
  if (clock !== 'manual' && clock !== 'realtime') throw new RangeError(`clock must be manual or realtime, got ${String(clock)}`);
  const port = o.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new RangeError(`port must be an integer 0..65535, got ${port}`);
  const speed = o.speed ?? 1;
  if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`speed must be a positive number, got ${speed}`);
  if (o.apiKey !== undefined && o.apiKey === '') throw new RangeError('apiKey must not be empty when set');
  const { rateLimit, keylessRateLimit } = o;
  const shape = validateWireShape('shape', o.shape ?? 'live');
  const worldOptions: WorldOptions = {
    seed: o.seed,
    markets: o.markets,
    tradesPerMarketHour: o.tradesPerMarketHour,
    newEventsPerDay: o.newEventsPerDay,
    settlementLagSec: o.settlementLagSec,
    upDownEverySec: o.upDownEverySec,
    shape,
    ...(o.activity ? { activity: o.activity } : {}),
    ...(o.earlyCloses ? { earlyCloses: o.earlyCloses } : {}),
    // Anchored at the wall clock only when the world starts there: a chosen `startSec` is a simulated calendar.
    ...(clock === 'realtime' && o.startSec === undefined ? { servedSpeed: speed } : {}),
  };
  return {
    world: { ...worldOptions, startSec: o.startSec ?? (clock === 'realtime' ? Math.floor(nowMs() / 1000) : DEFAULT_START_SEC) },
    port,
    apiKey: o.apiKey,
    rateLimit: validateRateLimit({ requests: rateLimit?.requests ?? 600, windowMs: rateLimit?.windowMs ?? DEFAULT_WINDOW_MS }, 'rateLimit'),
    keylessRateLimit: validateRateLimit(
      { requests: keylessRateLimit?.requests ?? 60, windowMs: keylessRateLimit?.windowMs ?? DEFAULT_WINDOW_MS },
      'keylessRateLimit',
    ),
    gatewayWindow: o.gatewayWindow === undefined ? undefined : validateRateLimit(o.gatewayWindow, 'gatewayWindow'),
    maxPageSize: positiveInt('maxPageSize', o.maxPageSize ?? 20),
    maxLimit: positiveInt('maxLimit', o.maxLimit ?? 100),
    subSecondRetryAfter: o.subSecondRetryAfter ?? false,
    clock,
    stepEveryMs: positiveInt('stepEveryMs', o.stepEveryMs ?? 1000),
    speed,
    faults: o.faults ?? {},
    faultSchedule: validateFaultSchedule(o.faultSchedule ?? []),
    requestLogLimit: positiveInt('requestLogLimit', o.requestLogLimit ?? 200_000),
    nowMs,
  };
}
