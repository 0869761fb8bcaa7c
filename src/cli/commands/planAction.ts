import { resolveClientOptions } from '../../api/client/PredictionClientOptions.js';
import { planRateLimit } from '../../app/planRateLimit.js';
import type { Config } from '../../config.js';
import { HOW_TO_GET_DATA } from '../../domain/howToGetData.js';
import { buildPlan } from '../../plan/buildPlan.js';
import { formatPlan } from '../../plan/formatPlan.js';
import { readUniverse, type Universe } from '../../plan/readUniverse.js';
import { selectServiceSettings, type ServiceSettings } from '../../sql/coordination/serviceSettings.js';
import { selectBookCandidates } from '../../sql/targets/selectBookCandidates.js';
import { booksPerBatch } from '../../sync/booksPerBatch.js';
import { DEFAULT_BATCH_SIZE } from '../../sync/defaultBatchSize.js';
import { hotListingPages } from '../../sync/hotListingPages.js';
import type { JobName } from '../../sync/jobCatalog.js';
import { openReadOnlyDatabase } from '../openReadOnlyDatabase.js';

/** The options of `plan`. */
export interface PlanOptions {
  rpm?: number;
  json?: boolean;
}

/** SQLSTATEs of a database the app never migrated: no `prediction` schema, or no table in it. */
const NOT_MIGRATED = new Set(['3F000', '42P01']);

/** What `plan` runs: the plan at the given or stored rate, from what the database holds, on stdout. */
export async function planAction(opts: PlanOptions, deps: { getConfig: () => Readonly<Config> }): Promise<void> {
  const config = deps.getConfig();
  const database = await openReadOnlyDatabase(config, 'plan');
  try {
    // The service's own schedules when it stored them (the demo's are seconds apart): the plan is of what runs.
    const service = await selectServiceSettings(database.sql).catch((error: unknown) => {
      if (NOT_MIGRATED.has((error as { code?: string }).code ?? '')) return null;
      throw error;
    });
    const settings = planSettings(config, service);
    const rpm = opts.rpm ?? settings.rateLimitRpm;
    const universe = await readUniverse(database.sql, {
      providers: config.providers,
      categories: config.categories,
      orderBookMaxAgeSec: settings.orderBookMaxAgeSec,
      now: new Date(),
      pageSize: config.pageSize,
    }).catch((error: unknown) => {
      if (NOT_MIGRATED.has((error as { code?: string }).code ?? '')) return null;
      throw error;
    });
    const empty = emptiness(universe);
    if (empty !== null) {
      process.stdout.write(
        opts.json ? `${JSON.stringify({ rpm, settingsFrom: settings.from, nothingToPlan: empty })}\n` : `nothing to plan yet: ${empty}\n`,
      );
      return;
    }
    // The client's limit as createClientFromConfig sets it, with the margin its queue adds.
    const { rateLimit } = resolveClientOptions({ baseUrl: config.apiUrl, rateLimit: planRateLimit(rpm) });
    const plan = buildPlan({
      universe: universe!,
      rpm,
      limit: { requests: rateLimit.requests, windowMs: rateLimit.windowMs + rateLimit.marginMs },
      schedules: settings.schedules,
      orderBookMaxAgeSec: settings.orderBookMaxAgeSec,
      // The service's jobs run with the default batch size.
      booksPerBatch: booksPerBatch(DEFAULT_BATCH_SIZE),
      // The service sweeps on its schedule at the plan's rate: the plan predicts what it captures.
      books: await selectBookCandidates(database.sql, config.providers, universe!.at),
      sweepListingPages: hotListingPages(config.hotEvents) * config.providers.length,
    });
    process.stdout.write(
      opts.json
        ? `${JSON.stringify({ ...plan, settingsFrom: settings.from }, null, 2)}\n`
        : `${settingsLine(settings.from)}\n` +
            formatPlan(plan, { configuredRpm: settings.rateLimitRpm, orderBookMaxAgeSec: settings.orderBookMaxAgeSec }),
    );
  } finally {
    await database.close();
  }
}

/** Why there is nothing to plan (no schema, or no listing crawled to its end and no open market), or null. */
function emptiness(universe: Universe | null): string | null {
  if (universe === null) return `the database holds no prediction schema (no sync or service has run against it); ${HOW_TO_GET_DATA}`;
  const crawled = universe.listings.some((l) => l.eventsListed !== null);
  if (crawled || universe.openMarkets > 0) return null;
  const listings = universe.listings.map((l) => `${l.provider}/${l.category}`).join(', ');
  return `no listing of the crawl plan (${listings}) was crawled to its end in this database; ${HOW_TO_GET_DATA}`;
}

/** Where the plan's schedules, book age and default rate come from: the service that stored its own, or this process's configuration. */
type SettingsFrom = { source: 'service'; instanceId: string; startedAt: Date } | { source: 'configuration' };

interface PlanSettings {
  from: SettingsFrom;
  schedules: Record<JobName, string>;
  orderBookMaxAgeSec: number;
  rateLimitRpm: number;
}

function planSettings(config: Readonly<Config>, service: ServiceSettings | null): PlanSettings {
  if (service === null) {
    return {
      from: { source: 'configuration' },
      schedules: {
        crawl: config.crawlSchedule,
        trades: config.tradesSchedule,
        details: config.detailsSchedule,
        orderbooks: config.orderBookSchedule,
      },
      orderBookMaxAgeSec: config.orderBookMaxAgeSec,
      rateLimitRpm: config.rateLimitRpm,
    };
  }
  return {
    from: { source: 'service', instanceId: service.instanceId, startedAt: service.startedAt },
    schedules: service.schedules,
    orderBookMaxAgeSec: service.orderBookMaxAgeSec,
    rateLimitRpm: service.rateLimitRpm ?? config.rateLimitRpm,
  };
}

function settingsLine(from: SettingsFrom): string {
  return from.source === 'service'
    ? `settings of the service started at ${from.startedAt.toISOString().slice(0, 19).replace('T', ' ')} UTC (${from.instanceId}): its schedules, ORDERBOOK_MAX_AGE_SEC and rate`
    : "settings of this process's configuration: no service has stored its own in this database";
}
