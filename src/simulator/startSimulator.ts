/**
 * The in-process simulator of the Prediction Market Read API: a seeded world served over real
 * HTTP on 127.0.0.1, with auth, a sliding-window rate limit, runtime fault injection and a
 * request log for tests.
 */
import { errorChainMessage } from '../errors/errorChainMessage.js';
import { Faults } from './faults/faults.js';
import { FixedWindowLimiter } from './limits/fixedWindowLimiter.js';
import { type RateLimit, SlidingWindowLimiter, validateRateLimit } from './limits/slidingWindowLimiter.js';
import { type RequestCounters, RequestLog, type RequestRecord } from './observe/requestLog.js';
import { startRealtimeDriver } from './realtimeDriver.js';
import { type ServingSettings, startHttpServer } from './server/httpServer.js';
import { positiveInt, resolveOptions, type SimulatorOptions } from './simulatorOptions.js';
import { World } from './World.js';

export interface Simulator {
  /** Base URL including the prefix, e.g. http://127.0.0.1:PORT/prediction/v1 */
  readonly url: string;
  readonly port: number;
  readonly world: World;
  readonly faults: Faults;
  readonly log: RequestLog;
  /** Every request seen since the last resetRequests() (a live view). */
  readonly requests: readonly RequestRecord[];
  counters(): RequestCounters;
  resetRequests(): void;
  /** Replaces limits (given ones only) and empties their windows. */
  setRateLimits(limits: { keyed?: RateLimit; keyless?: RateLimit }): void;
  /** Empties both windows (limits unchanged). */
  resetRateLimits(): void;
  setMaxPageSize(maxPageSize: number): void;
  /** Caps GET /events pages asked for by `limit` (the server then answers fewer than asked). */
  setMaxLimit(maxLimit: number): void;
  setApiKey(apiKey: string | undefined): void;
  /** Stops stepping, closes every socket (hung requests included) and the server. Idempotent. */
  stop(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const o = resolveOptions(options);
  const world = new World(o.world);
  const faults = new Faults(world.seed, o.faults, o.faultSchedule, () => world.nowSec - o.world.startSec);
  const log = new RequestLog(o.requestLogLimit);
  const limiters = { keyed: new SlidingWindowLimiter(o.rateLimit), keyless: new SlidingWindowLimiter(o.keylessRateLimit) };
  const settings: ServingSettings = {
    apiKey: o.apiKey,
    maxPageSize: o.maxPageSize,
    maxLimit: o.maxLimit,
    subSecondRetryAfter: o.subSecondRetryAfter,
  };
  const gateway = o.gatewayWindow ? new FixedWindowLimiter(o.gatewayWindow) : undefined;
  const server = await startHttpServer({ world, settings, limiters, gateway, faults, log, nowMs: o.nowMs }, o.port);
  const driver =
    o.clock === 'realtime'
      ? startRealtimeDriver(world, o.stepEveryMs, o.speed, o.nowMs, (err) =>
          process.stderr.write(`simulator: world step failed: ${errorChainMessage(err)}\n`),
        )
      : undefined;
  let stopped: Promise<void> | undefined;

  return {
    url: server.url,
    port: server.port,
    world,
    faults,
    log,
    get requests() {
      return log.all();
    },
    counters: () => log.counters(),
    resetRequests: () => log.reset(),
    setRateLimits: ({ keyed, keyless }) => {
      if (keyed) limiters.keyed.configure(validateRateLimit(keyed, 'keyed'));
      if (keyless) limiters.keyless.configure(validateRateLimit(keyless, 'keyless'));
    },
    resetRateLimits: () => {
      limiters.keyed.reset();
      limiters.keyless.reset();
    },
    setMaxPageSize: (n) => {
      settings.maxPageSize = positiveInt('maxPageSize', n);
    },
    setMaxLimit: (n) => {
      settings.maxLimit = positiveInt('maxLimit', n);
    },
    setApiKey: (key) => {
      settings.apiKey = key;
    },
    stop: () => {
      stopped ??= (async () => {
        driver?.stop();
        await server.close();
      })();
      return stopped;
    },
  };
}
