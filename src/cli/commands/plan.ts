import { withoutCredentials } from '../../net/withoutCredentials.js';
import type { Command } from 'commander';
import { resolveClientOptions } from '../../api/client/PredictionClientOptions.js';
import type { Config } from '../../config.js';
import { connect } from '../../db/connect.js';
import { resolveDatabaseForCommand } from '../resolveDatabaseForCommand.js';
import { buildPlan } from '../../plan/buildPlan.js';
import { formatPlan } from '../../plan/formatPlan.js';
import { readUniverse, type Universe } from '../../plan/readUniverse.js';
import { DEFAULT_BATCH_SIZE } from '../../sync/runJob.js';
import { booksPerBatch } from '../../sync/sweepOrderBooks.js';
import { integer } from '../optionParsers.js';
import { selectBookCandidates } from '../../sql/targets/selectBookCandidates.js';
import { planRateLimit } from '../../app/createClientFromConfig.js';

/** SQLSTATEs of a database the app never migrated: no `prediction` schema, or no table in it. */
const NOT_MIGRATED = new Set(['3F000', '42P01']);

export function registerPlan(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('plan')
    .description(
      'how the request budget is spent on listings, details and order books, and how often each book is refreshed, from what the database holds',
    )
    .option('--rpm <n>', 'plan for this many requests per minute (default: PREDICTION_RATE_LIMIT_RPM)', integer(1))
    .option('--json', 'print the plan as JSON')
    .action(async (opts: { rpm?: number; json?: boolean }) => {
      const config = deps.getConfig();
      const rpm = opts.rpm ?? config.rateLimitRpm;
      const target = await resolveDatabaseForCommand(config);
      if (target.embedded)
        process.stderr.write(
          `prediction-ingest: embedded Postgres at ${withoutCredentials(target.url)} (password in DATA_DIR/embedded-postgres.json)\n`,
        );
      const database = connect(target.url, {
        max: 1,
        applicationName: 'prediction-ingest plan',
        statementTimeoutMs: config.databaseStatementTimeoutSec * 1000,
      });
      try {
        const universe = await readUniverse(database.sql, {
          providers: config.providers,
          categories: config.categories,
          orderBookMaxAgeSec: config.orderBookMaxAgeSec,
          now: new Date(),
          pageSize: config.pageSize,
        }).catch((error: unknown) => {
          if (NOT_MIGRATED.has((error as { code?: string }).code ?? '')) return null;
          throw error;
        });
        const empty = emptiness(universe);
        if (empty !== null) {
          process.stdout.write(opts.json ? `${JSON.stringify({ rpm, nothingToPlan: empty })}\n` : `nothing to plan yet: ${empty}\n`);
          return;
        }
        // The client's limit as createClientFromConfig sets it, with the margin its queue adds.
        const { rateLimit } = resolveClientOptions({ baseUrl: config.apiUrl, rateLimit: planRateLimit(rpm) });
        const plan = buildPlan({
          universe: universe!,
          rpm,
          limit: { requests: rateLimit.requests, windowMs: rateLimit.windowMs + rateLimit.marginMs },
          schedules: {
            crawl: config.crawlSchedule,
            trades: config.tradesSchedule,
            details: config.detailsSchedule,
            orderbooks: config.orderBookSchedule,
          },
          orderBookMaxAgeSec: config.orderBookMaxAgeSec,
          // The service's jobs run with the default batch size.
          booksPerBatch: booksPerBatch(DEFAULT_BATCH_SIZE),
          // The service sweeps on its schedule at the plan's rate: the plan predicts what it captures.
          books: await selectBookCandidates(database.sql, config.providers, universe!.at),
        });
        process.stdout.write(
          opts.json
            ? `${JSON.stringify(plan, null, 2)}\n`
            : formatPlan(plan, { configuredRpm: config.rateLimitRpm, orderBookMaxAgeSec: config.orderBookMaxAgeSec }),
        );
      } finally {
        await database.close();
        await target.release();
      }
    });
}

/** Why there is nothing to plan (no schema, or no listing crawled to its end and no open market), or null. */
function emptiness(universe: Universe | null): string | null {
  if (universe === null) return 'the database holds no prediction schema (no sync or service has run against it)';
  const crawled = universe.listings.some((l) => l.eventsListed !== null);
  if (crawled || universe.openMarkets > 0) return null;
  const listings = universe.listings.map((l) => `${l.provider}/${l.category}`).join(', ');
  return `no listing of the crawl plan (${listings}) was crawled to its end in this database; run \`sync\` or the service first`;
}
