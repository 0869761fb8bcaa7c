/**
 * `simulate`: runs the API simulator in real time on 127.0.0.1 until SIGINT/SIGTERM, and prints
 * how to point the app at it. Bad option values exit with code 2 and a message naming the option.
 */
import type { Command } from 'commander';
import { DRIFT_KINDS, startSimulator, WIRE_SHAPES, type DriftKind, type FaultSettings, type RateLimit, type Simulator, type SimulatorOptions, type WireShape } from '../../simulator/index.js';
import { usageError } from '../cliError.js';

/** What `simulate` runs with: simulator options with every CLI default filled in. */
export type SimulateOptions = SimulatorOptions & { port: number; rateLimit: RateLimit; keylessRateLimit: RateLimit; shape: WireShape };

type Raw = Record<string, string | boolean | undefined>;

const intIn = (raw: Raw, key: string, flag: string, min: number, max: number, dflt: number): number => {
  const v = raw[key];
  if (v === undefined) return dflt;
  const text = String(v).trim();
  const n = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw usageError(`${flag} must be an integer ${min}..${max}, got ${JSON.stringify(v)}`);
  }
  return n;
};

const num = (raw: Raw, key: string, flag: string, min: number, max: number, what: string): number | undefined => {
  const v = raw[key];
  if (v === undefined) return undefined;
  const text = String(v).trim();
  const n = Number(text);
  if (text === '' || !Number.isFinite(n) || n < min || n > max) throw usageError(`${flag} must be ${what}, got ${JSON.stringify(v)}`);
  return n;
};

/** `--shape` of `simulate` and `demo`: live (default), spec or mixed. Throws a usage CliError. */
export function parseShapeOption(value: string | boolean | undefined): WireShape {
  if (value === undefined) return 'live';
  const text = String(value).trim();
  if (!(WIRE_SHAPES as readonly string[]).includes(text)) throw usageError(`--shape must be one of ${WIRE_SHAPES.join(', ')}, got ${JSON.stringify(value)}`);
  return text as WireShape;
}

const rate = (raw: Raw, key: string, flag: string) => num(raw, key, flag, 0, 1, 'a number in 0..1');
const ms = (raw: Raw, key: string, flag: string) => num(raw, key, flag, 0, 3_600_000, 'a number of ms in 0..3600000');

/** Pure: raw commander option values (strings) to simulator options. Throws a usage CliError (exit 2). */
export function parseSimulateOptions(raw: Raw): SimulateOptions {
  const windowMs = intIn(raw, 'windowMs', '--window-ms', 1, 86_400_000, 60_000);
  const faults: Partial<FaultSettings> = {};
  const set = <K extends keyof FaultSettings>(k: K, v: FaultSettings[K] | undefined) => {
    if (v !== undefined) faults[k] = v;
  };
  set('errorRate', rate(raw, 'faultErrorRate', '--fault-error-rate'));
  set('rateLimitStormRate', rate(raw, 'faultStormRate', '--fault-storm-rate'));
  set('stormRetryAfterMs', ms(raw, 'faultStormRetryAfterMs', '--fault-storm-retry-after-ms'));
  set('latencyMs', ms(raw, 'faultLatencyMs', '--fault-latency-ms'));
  set('latencyJitterMs', ms(raw, 'faultLatencyJitterMs', '--fault-latency-jitter-ms'));
  set('hangRate', rate(raw, 'faultHangRate', '--fault-hang-rate'));
  set('malformedRate', rate(raw, 'faultMalformedRate', '--fault-malformed-rate'));
  set('nullBookRate', rate(raw, 'faultNullBookRate', '--fault-null-book-rate'));
  set('driftRate', rate(raw, 'faultDriftRate', '--fault-drift-rate'));
  set('orderbookErrorRate', rate(raw, 'faultOrderbookErrorRate', '--fault-orderbook-error-rate'));
  if (raw.faultDriftKinds !== undefined) {
    const kinds = String(raw.faultDriftKinds).split(',').map((s) => s.trim()).filter(Boolean);
    const bad = kinds.filter((k) => !(DRIFT_KINDS as readonly string[]).includes(k));
    if (kinds.length === 0 || bad.length > 0) throw usageError(`--fault-drift-kinds must be a comma-separated list of ${DRIFT_KINDS.join(', ')}, got ${JSON.stringify(raw.faultDriftKinds)}`);
    faults.driftKinds = kinds as DriftKind[];
  }
  const apiKey = raw.apiKey === undefined ? undefined : String(raw.apiKey);
  if (apiKey !== undefined && apiKey.trim() === '') throw usageError('--api-key must not be empty');
  const startSec = raw.startSec === undefined ? undefined : intIn(raw, 'startSec', '--start-sec', 0, 32_503_680_000, 0);
  return {
    port: intIn(raw, 'port', '--port', 0, 65_535, 8787),
    seed: intIn(raw, 'seed', '--seed', 0, 4_294_967_295, 1),
    markets: intIn(raw, 'markets', '--markets', 1, 1_000_000, 200),
    apiKey,
    rateLimit: { requests: intIn(raw, 'rpm', '--rpm', 1, 10_000_000, 600), windowMs },
    keylessRateLimit: { requests: intIn(raw, 'keylessRpm', '--keyless-rpm', 1, 10_000_000, 60), windowMs },
    maxPageSize: intIn(raw, 'maxPageSize', '--max-page-size', 1, 10_000, 20),
    stepEveryMs: intIn(raw, 'stepEveryMs', '--step-every-ms', 10, 3_600_000, 1000),
    speed: num(raw, 'speed', '--speed', Number.MIN_VALUE, 1_000_000, 'a positive number') ?? 1,
    subSecondRetryAfter: raw.subSecondRetryAfter === true,
    clock: 'realtime',
    shape: parseShapeOption(raw.shape),
    ...(startSec === undefined ? {} : { startSec }),
    faults,
  };
}

export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description('Run the Prediction API simulator on 127.0.0.1 (real-time evolution) until Ctrl-C')
    .option('--port <n>', 'TCP port, 0 = any free port (default 8787)')
    .option('--seed <s>', 'world seed: same seed, same world (default 1)')
    .option('--markets <m>', 'markets generated up front (default 200)')
    .option('--api-key <k>', 'expected x-api-key (default: any non-empty key is accepted)')
    .option('--rpm <n>', 'keyed requests accepted per sliding window (default 600)')
    .option('--keyless-rpm <n>', 'requests without x-api-key accepted per window (default 60)')
    .option('--window-ms <n>', 'sliding window length in ms (default 60000)')
    .option('--max-page-size <n>', 'cap on end - start of list pages (default 20)')
    .option('--step-every-ms <n>', 'how often the world evolves, ms (default 1000)')
    .option('--speed <x>', 'simulated seconds per real second (default 1)')
    .option('--start-sec <t>', 'simulated start, Unix seconds (default: now)')
    .option('--shape <s>', `wire shapes: ${WIRE_SHAPES.join(' | ')}; live = what the live service sends today (default live)`)
    .option('--sub-second-retry-after', 'send Retry-After / x-ratelimit-reset as decimal seconds')
    .option('--fault-error-rate <x>', 'share of requests answered 500/502/503 (default 0)')
    .option('--fault-storm-rate <x>', 'share of requests answered 429 regardless of the limit (default 0)')
    .option('--fault-storm-retry-after-ms <n>', 'Retry-After of storm 429s, ms (default 1000)')
    .option('--fault-latency-ms <n>', 'added latency, ms (default 0)')
    .option('--fault-latency-jitter-ms <n>', 'extra random latency up to this, ms (default 0)')
    .option('--fault-hang-rate <x>', 'share of requests never answered (default 0)')
    .option('--fault-malformed-rate <x>', 'share of listed records made invalid (default 0)')
    .option('--fault-null-book-rate <x>', 'share of order books answered null (default 0)')
    .option('--fault-drift-rate <x>', 'share of records in a drifted upstream shape (default 0)')
    .option('--fault-drift-kinds <list>', `drifts to apply, comma-separated (default all: ${DRIFT_KINDS.join(',')})`)
    .option('--fault-orderbook-error-rate <x>', 'share of /orderbook requests answered 502 (default 0)')
    .action(async (raw: Raw) => {
      await runSimulator(parseSimulateOptions(raw));
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
  print(`  world: seed ${sim.world.seed}, ${options.shape} shapes, ${stats.markets} markets in ${stats.events} events (${stats.activeEvents} listed), real-time x${options.speed}, step every ${options.stepEveryMs} ms`);
  print(`  limits: ${limit.requests} keyed / ${options.keylessRateLimit.requests} keyless requests per ${limit.windowMs} ms; max page size ${options.maxPageSize}`);
  print('Point the app at it with:');
  // The key itself is never printed.
  const key = options.apiKey === undefined ? 'any-non-empty-key' : '<the value given to --api-key>';
  print(`  PREDICTION_API_URL=${sim.url} PREDICTION_API_KEY=${key} PREDICTION_RATE_LIMIT_RPM=${Math.floor((limit.requests * 60_000) / limit.windowMs)}`);
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
