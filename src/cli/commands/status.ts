import { type Command, InvalidArgumentError } from 'commander';

import type { Config } from '../../config.js';
import { connect } from '../../db/connect.js';
import { sanitizeText } from '../../errors/sanitizeText.js';
import { withoutCredentials } from '../../net/withoutCredentials.js';
import { selectServiceSettings } from '../../sql/coordination/serviceSettings.js';
import { collectStatus } from '../../status/collectStatus.js';
import { defaultThresholds } from '../../status/defaultThresholds.js';
import { formatStatus } from '../../status/formatStatus.js';
import { NotMigratedError } from '../../status/NotMigratedError.js';
import type { Verdict } from '../../status/StatusReport.js';
import { CliError } from '../cliError.js';
import { ExitCode } from '../exitCodes.js';
import { onShutdownSignal } from '../onShutdownSignal.js';
import { integer } from '../optionParsers.js';
import { parseSince, TIME_FORMATS } from '../parseTime.js';
import { resolveDatabaseForCommand } from '../resolveDatabaseForCommand.js';

const DEFAULT_SINCE = '24h';

/** Exit code by verdict, the reasons on stderr: degraded alone exits 6, as `sync` does; unhealthy wins over it. */
const EXIT_CODE: Record<Verdict, ExitCode> = { healthy: ExitCode.ok, degraded: ExitCode.degraded, unhealthy: ExitCode.unhealthy };

interface StatusOptions {
  json?: boolean;
  since?: string;
  maxAgeSec?: number;
  maxBookAgeSec?: number;
}

/** Checks `--since` when it is parsed (so commander names it in the error) and keeps the text: it is read against the report's instant. */
function sinceArgument(value: string): string {
  try {
    parseSince(value, new Date());
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
  return value;
}

export function registerStatus(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('status')
    .description(
      'report the latest runs, freshness, drift and quarantine, database size and request rate; exit non-zero when unhealthy (read-only)',
    )
    .option('--json', 'print one JSON document instead of text')
    .option(
      '--since <when>',
      `start of the period the run, drift and quarantine counts cover, and in which a job's latest run failing (or degrading) counts: ${TIME_FORMATS} (default: ${DEFAULT_SINCE})`,
      sinceArgument,
    )
    .option(
      '--max-age-sec <n>',
      'age allowed for the latest complete crawl of each listing crawled (default: twice the CRAWL_SCHEDULE period)',
      integer(1),
    )
    .option(
      '--max-book-age-sec <n>',
      "age allowed for the oldest open market's order book (default: ORDERBOOK_MAX_AGE_SEC plus twice the ORDERBOOK_SCHEDULE period)",
      integer(1),
    )
    .action(async (opts: StatusOptions) => {
      const config = deps.getConfig();
      const defaults = await defaultThresholds(config);
      const thresholds = {
        listingMaxAgeSec: opts.maxAgeSec ?? defaults.listingMaxAgeSec,
        bookMaxAgeSec: opts.maxBookAgeSec ?? defaults.bookMaxAgeSec,
      };
      const target = await resolveDatabaseForCommand(config);
      if (target.embedded)
        process.stderr.write(
          `prediction-ingest: embedded Postgres at ${withoutCredentials(target.url)} (password in DATA_DIR/embedded-postgres.json)\n`,
        );
      // Read-only: a stop has nothing to finish, only the embedded server (if this process started it) to stop.
      const removeSignals = onShutdownSignal(() => void target.release().finally(() => process.exit(ExitCode.interrupted)));
      const database = connect(target.url, {
        max: 1,
        applicationName: 'prediction-ingest status',
        statementTimeoutMs: config.databaseStatementTimeoutSec * 1000,
      });
      try {
        // Ages are measured from here, once the database is at hand: starting an embedded server takes seconds.
        const at = new Date();
        // The running service's rate, as it stored it (the demo's is not PREDICTION_RATE_LIMIT_RPM): the rate it is measured against.
        const service = await selectServiceSettings(database.sql).catch((error: unknown) => {
          if (NotMigratedError.from(error, false) !== undefined) return null;
          throw error;
        });
        const report = await collectStatus(database.sql, {
          at,
          since: parseSince(opts.since ?? DEFAULT_SINCE, at),
          thresholds,
          providers: config.providers,
          categories: config.categories,
          rateLimitRpm: service?.rateLimitRpm ?? config.rateLimitRpm,
          retentionMonths: config.retentionMonths,
        }).catch((error: unknown) => {
          throw error instanceof NotMigratedError ? new CliError(error.message, ExitCode.failure, { cause: error }) : error;
        });
        process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report));
        if (!report.healthy) {
          const reasons = report.problems.map((p) => p.message).join('; ');
          process.stderr.write(`prediction-ingest: ${report.verdict}: ${sanitizeText(reasons, 2000)}\n`);
          process.exitCode = EXIT_CODE[report.verdict];
        }
      } finally {
        removeSignals();
        await database.close();
        await target.release();
      }
    });
}
