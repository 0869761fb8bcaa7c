import { type RateLimit, type Simulator, type SimulatorOptions, startSimulator, type WireShape } from '../../simulator/index.js';
import { usageError } from '../cliError.js';

/** What `simulate` runs with: simulator options with every CLI default filled in. */
export type SimulateOptions = SimulatorOptions & { port: number; rateLimit: RateLimit; keylessRateLimit: RateLimit; shape: WireShape };

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
