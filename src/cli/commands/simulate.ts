/**
 * `simulate`: runs the API simulator in real time on 127.0.0.1 until SIGINT/SIGTERM, and prints
 * how to point the app at it. Bad option values exit with code 2 and a message naming the option.
 */
import type { Command } from 'commander';

// The option lists from the files that declare them, not the simulator's index: that would load
// the whole simulator for every command's options.
import { DRIFT_KINDS, type DriftKind, type FaultSettings, PAST_DRIFT_KINDS } from '../../simulator/faults/faultSettings.js';
import { WIRE_SHAPES, type WireShape } from '../../simulator/world/wireShape.js';
import { decimal, integer, listOf, nonEmpty, oneOf } from '../optionParsers.js';
import type { SimulateOptions } from './runSimulator.js';

export type { SimulateOptions } from './runSimulator.js';

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
    // The simulator itself is loaded only when `simulate` runs.
    .action(async (flags: SimulateFlags) => {
      const { runSimulator } = await import('./runSimulator.js');
      await runSimulator(simulateOptions(flags));
    });
}
