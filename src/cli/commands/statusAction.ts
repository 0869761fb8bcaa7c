import type { Config } from '../../config.js';
import { sanitizeText } from '../../errors/sanitizeText.js';
import { selectServiceSettings } from '../../sql/coordination/serviceSettings.js';
import { collectStatus } from '../../status/collectStatus.js';
import { defaultThresholds } from '../../status/defaultThresholds.js';
import { formatStatus } from '../../status/formatStatus.js';
import { NotMigratedError } from '../../status/NotMigratedError.js';
import type { Verdict } from '../../status/StatusReport.js';
import { CliError } from '../cliError.js';
import { ExitCode } from '../exitCodes.js';
import { openReadOnlyDatabase } from '../openReadOnlyDatabase.js';
import { parseSince } from '../parseTime.js';

/** Exit code by verdict, the reasons on stderr: degraded alone exits 6, as `sync` does; unhealthy wins over it. */
const EXIT_CODE: Record<Verdict, ExitCode> = { healthy: ExitCode.ok, degraded: ExitCode.degraded, unhealthy: ExitCode.unhealthy };

/** The options of `status`, `--since` with its default filled in. */
export interface StatusOptions {
  json?: boolean;
  since: string;
  maxAgeSec?: number;
  maxBookAgeSec?: number;
}

/** What `status` runs: the report, on stdout; the verdict, as the exit code. */
export async function statusAction(opts: StatusOptions, deps: { getConfig: () => Readonly<Config> }): Promise<void> {
  const config = deps.getConfig();
  const defaults = await defaultThresholds(config);
  const thresholds = {
    listingMaxAgeSec: opts.maxAgeSec ?? defaults.listingMaxAgeSec,
    bookMaxAgeSec: opts.maxBookAgeSec ?? defaults.bookMaxAgeSec,
  };
  const database = await openReadOnlyDatabase(config, 'status');
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
      since: parseSince(opts.since, at),
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
    await database.close();
  }
}
