/**
 * `simulate`: runs the API simulator in real time on 127.0.0.1 until SIGINT/SIGTERM, and prints
 * how to point the app at it. Bad option values exit with code 2 and a message naming the option.
 */
import type { Command } from 'commander';

import {
  DRIFT_KINDS,
  type DriftKind,
  type FaultSettings,
  PAST_DRIFT_KINDS,
  type RateLimit,
  type Simulator,
  type SimulatorOptions,
  startSimulator,
  WIRE_SHAPES,
  type WireShape,
} from '../../simulator/index.js';
import { usageError } from '../cliError.js';
import { decimal, integer, listOf, nonEmpty, oneOf } from '../optionParsers.js';

/** What `simulate` runs with: simulator options with every CLI default filled in. */
export type SimulateOptions = SimulatorOptions & { port: number; rateLimit: RateLimit; keylessRateLimit: RateLimit; shape: WireShape };

/** Option values as commander hands them over, parsed and defaulted by the declarations below. */
interface SimulateFlags {
  port: number;
  seed: number;
  markets: number;
  apiKey?: string;
  rpm: number;
  keylessRpm: number;
  windowMs: number;
  gatewayRequests?: number;
  gatewayWindowMs: number;
  maxPageSize: number;
  stepEveryMs: number;
  speed: number;
  startSec?: number;
  shape: WireShape;
  subSecondRetryAfter?: boolean;
  faultErrorRate?: number;
  faultStormRate?: number;
  faultStormRetryAfterMs?: number;
  faultLatencyMs?: number;
  faultLatencyJitterMs?: number;
  faultHangRate?: number;
  faultMalformedRate?: number;
  faultNullBookRate?: number;
  faultDriftRate?: number;
  faultDriftKinds?: DriftKind[];
  faultOrderbookErrorRate?: number;
}

const share = decimal(0, 1, 'a number in 0..1');
const ms = decimal(0, 3_600_000, 'a number of ms in 0..3600000');

/** `--shape` of `simulate` and `demo`. */
export const shapeOption = [
  '--shape <s>',
  `wire shapes: ${WIRE_SHAPES.join(' | ')}; live = what the live service sends today`,
  oneOf(WIRE_SHAPES),
  'live',
] as const;

/** Fault flags and the FaultSettings field each one sets (absent: the simulator's default, no fault). */
const FAULT_FLAGS = {
  faultErrorRate: 'errorRate',
  faultStormRate: 'rateLimitStormRate',
  faultStormRetryAfterMs: 'stormRetryAfterMs',
  faultLatencyMs: 'latencyMs',
  faultLatencyJitterMs: 'latencyJitterMs',
  faultHangRate: 'hangRate',
  faultMalformedRate: 'malformedRate',
  faultNullBookRate: 'nullBookRate',
  faultDriftRate: 'driftRate',
  faultDriftKinds: 'driftKinds',
  faultOrderbookErrorRate: 'orderbookErrorRate',
} as const satisfies Partial<Record<keyof SimulateFlags, keyof FaultSettings>>;

/** Pure: parsed flags to simulator options. */
export function simulateOptions(flags: SimulateFlags): SimulateOptions {
  const faults: Partial<Record<keyof FaultSettings, unknown>> = {};
  for (const [flag, field] of Object.entries(FAULT_FLAGS) as [keyof typeof FAULT_FLAGS, keyof FaultSettings][]) {
    if (flags[flag] !== undefined) faults[field] = flags[flag];
  }
  return {
    port: flags.port,
    seed: flags.seed,
    markets: flags.markets,
    apiKey: flags.apiKey,
    rateLimit: { requests: flags.rpm, windowMs: flags.windowMs },
    keylessRateLimit: { requests: flags.keylessRpm, windowMs: flags.windowMs },
    ...(flags.gatewayRequests === undefined ? {} : { gatewayWindow: { requests: flags.gatewayRequests, windowMs: flags.gatewayWindowMs } }),
    maxPageSize: flags.maxPageSize,
    stepEveryMs: flags.stepEveryMs,
    speed: flags.speed,
    subSecondRetryAfter: flags.subSecondRetryAfter === true,
    clock: 'realtime',
    shape: flags.shape,
    ...(flags.startSec === undefined ? {} : { startSec: flags.startSec }),
    faults: faults as Partial<FaultSettings>,
  };
}

export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description('Run the Prediction API simulator on 127.0.0.1 (real-time evolution) until Ctrl-C')
    .option('--port <n>', 'TCP port, 0 = any free port', integer(0, 65_535), 8787)
    .option('--seed <s>', 'world seed: same seed, same world', integer(0, 4_294_967_295), 1)
    .option('--markets <m>', 'markets generated up front', integer(1, 1_000_000), 200)
    .option('--api-key <k>', 'expected x-api-key (default: any non-empty key is accepted)', nonEmpty)
    .option('--rpm <n>', 'keyed requests accepted per sliding window', integer(1, 10_000_000), 600)
    .option('--keyless-rpm <n>', 'requests without x-api-key accepted per window', integer(1, 10_000_000), 60)
    .option('--window-ms <n>', 'sliding window length in ms', integer(1, 86_400_000), 60_000)
    .option(
      '--gateway-requests <n>',
      "the gateway's window in front of the service: requests per --gateway-window-ms (e.g. 5), with its headers on every answer and its own 429 (default: none)",
      integer(1, 10_000_000),
    )
    .option('--gateway-window-ms <n>', "the gateway's fixed window, ms", integer(1, 86_400_000), 4000)
    .option('--max-page-size <n>', 'cap on end - start of list pages', integer(1, 10_000), 20)
    .option('--step-every-ms <n>', 'how often the world evolves, ms', integer(10, 3_600_000), 1000)
    .option('--speed <x>', 'simulated seconds per real second', decimal(Number.MIN_VALUE, 1_000_000, 'a positive number'), 1)
    .option('--start-sec <t>', 'simulated start, Unix seconds (default: now)', integer(0, 32_503_680_000))
    .option(...shapeOption)
    .option('--sub-second-retry-after', 'send Retry-After / x-ratelimit-reset as decimal seconds')
    .option('--fault-error-rate <x>', 'share of requests answered 500/502/503 (default 0)', share)
    .option('--fault-storm-rate <x>', 'share of requests answered 429 regardless of the limit (default 0)', share)
    .option('--fault-storm-retry-after-ms <n>', 'Retry-After of storm 429s, ms (default 1000)', ms)
    .option('--fault-latency-ms <n>', 'added latency, ms (default 0)', ms)
    .option('--fault-latency-jitter-ms <n>', 'extra random latency up to this, ms (default 0)', ms)
    .option('--fault-hang-rate <x>', 'share of requests never answered (default 0)', share)
    .option('--fault-malformed-rate <x>', 'share of listed records made invalid (default 0)', share)
    .option('--fault-null-book-rate <x>', 'share of order books answered null (default 0)', share)
    .option('--fault-drift-rate <x>', 'share of records in a drifted upstream shape (default 0)', share)
    .option(
      '--fault-drift-kinds <list>',
      `drifts to apply, comma-separated, of ${DRIFT_KINDS.join(',')} (default ${PAST_DRIFT_KINDS.join(',')})`,
      listOf(DRIFT_KINDS),
    )
    .option('--fault-orderbook-error-rate <x>', 'share of /orderbook requests answered 502 (default 0)', share)
    .action(async (flags: SimulateFlags) => {
      await runSimulator(simulateOptions(flags));
    });
}

/** Starts the simulator and stops it on SIGINT/SIGTERM (a normal end: exit code 0). */
export async function runSimulator(options: SimulateOptions): Promise<void> {
  let sim: Simulator;
  try {
    sim = await startSimulator(options);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'EADDRINUSE') throw usageError(`--port ${options.port} is already in use on 127.0.0.1`);
    throw err;
  }
  const stats = sim.world.stats();
  const limit = options.rateLimit;
  const print = (line: string) => process.stdout.write(`${line}\n`);
  print(`Prediction API simulator listening on ${sim.url}`);
  print(
    `  world: seed ${sim.world.seed}, ${options.shape} shapes, ${stats.markets} markets in ${stats.events} events (${stats.activeEvents} listed), real-time x${options.speed}, step every ${options.stepEveryMs} ms`,
  );
  print(
    `  limits: ${limit.requests} keyed / ${options.keylessRateLimit.requests} keyless requests per ${limit.windowMs} ms; max page size ${options.maxPageSize}` +
      (options.gatewayWindow ? `; gateway: ${options.gatewayWindow.requests} requests per ${options.gatewayWindow.windowMs} ms` : ''),
  );
  print('Point the app at it with:');
  // The key itself is never printed.
  const key = options.apiKey === undefined ? 'any-non-empty-key' : '<the value given to --api-key>';
  print(
    `  PREDICTION_API_URL=${sim.url} PREDICTION_API_KEY=${key} PREDICTION_RATE_LIMIT_RPM=${Math.floor((limit.requests * 60_000) / limit.windowMs)}`,
  );
  print('Ctrl-C to stop.');

  const shutdown = (signal: NodeJS.Signals) => {
    process.off('SIGINT', shutdown);
    process.off('SIGTERM', shutdown);
    const c = sim.counters();
    print(`\n${signal}: stopping after ${c.total} requests (${c.accepted} accepted; by status ${JSON.stringify(c.byStatus)})`);
    sim.stop().then(
      () => print('Simulator stopped.'),
      (err: unknown) => {
        process.stderr.write(`simulator: error while stopping: ${String(err)}\n`);
        process.exitCode = 1;
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
