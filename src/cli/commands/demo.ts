import { randomBytes } from 'node:crypto';

import type { Command } from 'commander';

import type { Config } from '../../config.js';
import { withoutCredentials } from '../../net/withoutCredentials.js';
import type { SimulatorOptions, WireShape } from '../../simulator/index.js';
import { usageError } from '../cliError.js';
import { shapeOption } from './simulate.js';

/** The demo's world moves this many times faster than real time, so markets visibly close and resolve. */
const DEMO_SPEED = 60;
/** Simulated seconds within which the early-closing events close: 4 minutes of a demo. */
const EARLY_CLOSES_WITHIN_SEC = 4 * 60 * DEMO_SPEED;

/** Wall seconds into the demo at which its service starts sending a field no shape has (`feeBps` on every market). */
const DEMO_CHANGE_AT_SEC = 90;
/**
 * Wall seconds into the demo during which its service is down, answering every request 5xx: long
 * enough that a crawl starts in it and gives up (the client's retries end within 8 s), so the
 * listings miss their schedule. Neither end is a multiple of the 20 s between crawls, so each poll
 * of test/helpers/demoRun.ts is plainly in or out of it.
 */
const DEMO_OUTAGE_SEC = { from: 150, until: 190 } as const;

/**
 * The demo's world. Its times are served on the wall clock (world/servedTime.ts): a settlement is
 * dated when it happened, never after the poll that saw it. The initial world's closes are days
 * apart, so some events close early, one every 15 s over the first 4 minutes, and settle 20 s to
 * a minute later (longer than a crawl's 20 s, so a poll sees them closed before settled): the
 * resolution and settlement examples of docs/queries.md answer within 5 minutes. Its service
 * changes and fails on a schedule, as a real one does, so that the drift and coverage-gap examples
 * answer too: its markets gain a field (stored, and listed in analytics.upstream_drift), then it is
 * down for a while (the crawls meanwhile fail, listed in analytics.coverage_gaps).
 */
export const DEMO_WORLD = {
  seed: 42,
  markets: 400,
  clock: 'realtime',
  speed: DEMO_SPEED,
  earlyCloses: { events: 16, withinSec: EARLY_CLOSES_WITHIN_SEC },
  settlementLagSec: [20 * DEMO_SPEED, 60 * DEMO_SPEED],
  faultSchedule: [
    { fromSec: DEMO_CHANGE_AT_SEC * DEMO_SPEED, faults: { driftRate: 1, driftKinds: ['newMarketField'] } },
    { fromSec: DEMO_OUTAGE_SEC.from * DEMO_SPEED, untilSec: DEMO_OUTAGE_SEC.until * DEMO_SPEED, faults: { errorRate: 1 } },
  ],
} as const satisfies SimulatorOptions;
/** What the demo's schedule plays, said when it starts. */
const DEMO_SCHEDULE_LINES = [
  `  ${DEMO_CHANGE_AT_SEC} s in, the service starts sending a field no shape has (feeBps on every market): see analytics.upstream_drift`,
  `  ${minutesText(DEMO_OUTAGE_SEC.from)} to ${minutesText(DEMO_OUTAGE_SEC.until)} in, the service is down (every answer a 5xx): see analytics.coverage_gaps`,
];

function minutesText(sec: number): string {
  return `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, '0')}`;
}

/**
 * The simulated plan's rate: enough for every open market's book every 10 s (~280 books). At 600
 * a sweep cannot fetch them all (`npm run cli -- plan --rpm 600` on the demo's database says how many it does).
 */
const DEMO_RPM = 3_000;

export function registerDemo(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('demo')
    .description(
      'run the service against the built-in simulator, on the database every command uses (the embedded one without DATABASE_URL): no key, no setup',
    )
    .option(...shapeOption)
    .action(async ({ shape }: { shape: WireShape }) => {
      const base = deps.getConfig();
      // The embedded server takes seconds to start (longer on a first run): a line at once says what happens.
      process.stderr.write(
        `prediction-ingest demo: starting a simulated upstream and ${base.databaseUrl === undefined ? 'the embedded Postgres' : 'the service on DATABASE_URL'}…\n`,
      );
      // Loaded once that line is out, and only for the demo: the simulator and the service are most of the CLI's code.
      const [{ startSimulator }, { DEMO_UPSTREAM_ID, UpstreamMismatchError }, { runServiceUntilSignal }] = await Promise.all([
        import('../../simulator/startSimulator.js'),
        import('../../sql/admin/recordUpstream.js'),
        import('../runServiceUntilSignal.js'),
      ]);
      const apiKey = `demo-${randomBytes(12).toString('hex')}`;
      const sim = await startSimulator({
        ...DEMO_WORLD,
        apiKey,
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
          upstreamId: DEMO_UPSTREAM_ID,
          allowUpstreamChange: false,
          onStarted: ({ databaseUrl, opsUrl }) => {
            // DATABASE_URL may hold a password: shown without it, and psql is pointed at the variable.
            const where = base.databaseUrl === undefined ? databaseUrl : withoutCredentials(databaseUrl);
            const psql = base.databaseUrl === undefined ? `psql ${databaseUrl}` : 'psql "$DATABASE_URL"';
            process.stderr.write(
              [
                `prediction-ingest demo: a simulated upstream at ${sim.url} (world at ${DEMO_SPEED}x speed: its times are the wall clock's, its durations ${DEMO_SPEED}x shorter)`,
                `  ${DEMO_WORLD.earlyCloses.events} events close in the first ${EARLY_CLOSES_WITHIN_SEC / DEMO_SPEED / 60} minutes and settle within a minute of closing`,
                ...DEMO_SCHEDULE_LINES,
                `  data arrives in ${where}`,
                `  the commands read it there, now and after the demo: npm run cli -- status, plan, export --out <dir>${base.databaseUrl === undefined ? ' (with the same DATA_DIR)' : ''}`,
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
            (base.databaseUrl === undefined
              ? 'Run the demo on an embedded database of its own, with another DATA_DIR (DATA_DIR=./data-demo npm run demo, and the same DATA_DIR for the commands that read it), or point DATABASE_URL at an empty database'
              : 'Run the demo without DATABASE_URL (on the embedded database under DATA_DIR), or point DATABASE_URL at an empty database'),
        );
      } finally {
        await sim.stop();
      }
    });
}
