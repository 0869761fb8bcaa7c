import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import type { Config } from '../../config.js';
import { withoutCredentials } from '../../net/withoutCredentials.js';
import { startSimulator, type WireShape } from '../../simulator/index.js';
import { UpstreamMismatchError } from '../../sql/admin/recordUpstream.js';
import { usageError } from '../cliError.js';
import { runServiceUntilSignal } from '../runServiceUntilSignal.js';
import { shapeOption } from './simulate.js';

/** The demo's world moves this many times faster than real time, so markets visibly close and resolve. */
const DEMO_SPEED = 60;
/**
 * The simulated plan's rate: enough for every open market's book every 10 s (~280 books). At 600
 * a sweep cannot fetch them all (`npm run cli -- plan --rpm 600` on the demo's database says how many it does).
 */
const DEMO_RPM = 3_000;

export function registerDemo(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('demo')
    .description('run the service against the built-in simulator, on the embedded database: no key, no setup')
    .option(...shapeOption)
    .action(async ({ shape }: { shape: WireShape }) => {
      const base = deps.getConfig();
      const apiKey = `demo-${randomBytes(12).toString('hex')}`;
      const sim = await startSimulator({
        seed: 42,
        markets: 400,
        apiKey,
        clock: 'realtime',
        speed: DEMO_SPEED,
        rateLimit: { requests: DEMO_RPM },
        shape,
      });
      try {
        const config: Config = {
          ...base,
          apiUrl: sim.url,
          apiKey,
          rateLimitRpm: DEMO_RPM,
          // Fast schedules: a newcomer should see data within seconds, not at the next quarter hour.
          crawlSchedule: '*/20 * * * * *',
          detailsSchedule: '*/30 * * * * *',
          tradesSchedule: '*/15 * * * * *',
          orderBookSchedule: '*/10 * * * * *',
          orderBookMaxAgeSec: 120,
          // The demo is watched by a person: a readable line per finished job, wherever its output goes.
          logFormat: base.logFormat === 'auto' ? 'pretty' : base.logFormat,
        };
        process.exitCode = await runServiceUntilSignal(Object.freeze(config), {
          // The simulator's port changes every run: it is one upstream all the same.
          upstreamId: 'simulator (npm run demo)',
          allowUpstreamChange: false,
          embeddedDatabase: 'prediction_demo',
          onStarted: ({ databaseUrl, opsUrl }) => {
            // DATABASE_URL may hold a password: shown without it, and psql is pointed at the variable.
            const where = base.databaseUrl === undefined ? databaseUrl : withoutCredentials(databaseUrl);
            const psql = base.databaseUrl === undefined ? `psql ${databaseUrl}` : 'psql "$DATABASE_URL"';
            process.stderr.write(
              [
                `prediction-ingest demo: a simulated upstream at ${sim.url} (world at ${DEMO_SPEED}x speed)`,
                `  data arrives in ${where}`,
                `  try:   ${psql} -c 'select market_id, title, status, implied_yes_probability, yes_spread_usd from analytics.market_latest limit 10'`,
                `         ${psql} -c 'select * from prediction.ingest_runs order by run_id desc limit 5'`,
                `  ops:   ${opsUrl}/metrics   ${opsUrl}/readyz`,
                '  Ctrl-C stops it.',
                '',
              ].join('\n'),
            );
          },
        });
      } catch (error) {
        if (!(error instanceof UpstreamMismatchError)) throw error;
        throw usageError(
          `This database holds data from ${error.heldUpstream}: the demo would mix its simulated data into it. ` +
            'Run the demo without DATABASE_URL (on its own embedded database), or point DATABASE_URL at an empty database',
        );
      } finally {
        await sim.stop();
      }
    });
}
