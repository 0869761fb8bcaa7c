import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PredictionClient } from '../../src/api/client/index.js';
import { CONCRETE_CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import type { Simulator } from '../../src/simulator/index.js';
import { recordServiceSettings } from '../../src/sql/coordination/serviceSettings.js';
import { runJob } from '../../src/sync/runJob.js';
import { runCli } from '../helpers/runCli.js';
import { startHarness, syncOnce } from '../helpers/syncHarness.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

// `status` as a user runs it, against databases the simulator filled on the real clock (ages are
// measured from the real now): its text, its JSON, and the exit code of each verdict.

let sim: Simulator;
let client: PredictionClient;
const databases: TestDatabase[] = [];
let healthy: TestDatabase;
let stale: TestDatabase;
let degraded: TestDatabase;

const HOUR_MS = 3_600_000;
/** The exit code of an unhealthy verdict, as the reference documents it (src/cli/exitCodes.ts). */
const UNHEALTHY = 7;
const SETTINGS = { PREDICTION_PROVIDERS: KNOWN_PROVIDERS.join(','), PREDICTION_CATEGORIES: CONCRETE_CATEGORIES.join(',') };
const status = (db: { url: string }, ...args: string[]) => runCli(['status', ...args], { ...SETTINGS, DATABASE_URL: db.url });
/** `status --json` on the healthy database, run once for the tests that read it. */
let healthyJson: ReturnType<typeof status> | undefined;
const json = (stdout: string) =>
  JSON.parse(stdout) as { verdict: string; problems: { kind: string; message: string }[] } & Record<string, unknown>;

async function database(fill?: (db: TestDatabase) => Promise<unknown>): Promise<TestDatabase> {
  const db = await createTestDatabase();
  databases.push(db);
  await fill?.(db);
  return db;
}

beforeAll(async () => {
  const harness = await startHarness({ markets: 40 });
  sim = harness.sim;
  client = harness.newClient();
  const realNow = () => new Date();
  healthy = await database((db) => syncOnce(db.sql, client, sim, { now: realNow }));
  stale = await database((db) => syncOnce(db.sql, client, sim, { now: () => new Date(Date.now() - 2 * HOUR_MS) }));
  // Half the records malformed: the run stores the rest and is degraded.
  sim.faults.set({ malformedRate: 0.5 });
  degraded = await database(async (db) => expect((await syncOnce(db.sql, client, sim, { now: realNow })).status).toBe('degraded'));
  sim.faults.set({ malformedRate: 0 });
});
afterAll(async () => {
  await Promise.all(databases.map((db) => db.close()));
  await client.close();
  await sim.stop();
});

describe('cli status', () => {
  it('exits 0 on fresh data and prints what it saw', async () => {
    const [text, doc] = await Promise.all([status(healthy), (healthyJson ??= status(healthy, '--json'))]);
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toMatch(/^prediction-ingest status at \S+Z: HEALTHY\n/);
    expect(text.stdout).toMatch(/\n {2}sync {8}run 1 succeeded, started /);
    // The sync ran seconds ago: the rate is averaged over the time since, not over 15 minutes.
    expect(text.stdout).toMatch(/Request rate over the last (\d+m )?\d+s \(since the first run within the last 15m\)/);
    expect(doc.code).toBe(0);
    expect(json(doc.stdout)).toMatchObject({ verdict: 'healthy', healthy: true, problems: [] });
  });

  it('prints one JSON document with stable keys, units in their names', async () => {
    const report = json((await (healthyJson ??= status(healthy, '--json'))).stdout) as Record<string, any>;
    expect(Object.keys(report)).toEqual([
      'generatedAt',
      'verdict',
      'healthy',
      'problems',
      'settings',
      'jobs',
      'freshness',
      'completeness',
      'intake',
      'database',
      'requestRate',
      'trades',
    ]);
    expect(Object.keys(report.settings)).toEqual(['listingMaxAgeSec', 'bookMaxAgeSec', 'sinceAt', 'rateWindowSec', 'rateLimitRpm']);
    // The defaults come from the schedules: twice the crawl's 10 minutes; an hour plus twice the sweep's minute.
    expect(report.settings).toMatchObject({ listingMaxAgeSec: 1200, bookMaxAgeSec: 3720, rateWindowSec: 900, rateLimitRpm: 60 });
    expect(Date.parse(report.generatedAt) - Date.parse(report.settings.sinceAt)).toBe(24 * HOUR_MS);
    expect(report.jobs.map((j: { job: string }) => j.job)).toEqual(['crawl', 'details', 'orderbooks', 'sync', 'trades']);
    expect(Object.keys(report.jobs[3].lastRun)).toEqual([
      'runId',
      'status',
      'startedAt',
      'finishedAt',
      'durationMs',
      'requests',
      'recordsSeen',
      'recordsWritten',
      'recordsRejected',
      'rowsWritten',
      'rowsByTable',
      'error',
    ]);
    expect(report.jobs[3].lastRun.startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Object.keys(report.freshness.listings[0])).toEqual([
      'provider',
      'category',
      'expected',
      'events',
      'activeEvents',
      'markets',
      'openMarkets',
      'lastCompleteCrawlStartedAt',
      'lastCompleteCrawlFinishedAt',
      'ageSec',
      'crawlsSince',
      'completeCrawlsSince',
    ]);
    expect(Object.keys(report.freshness.orderBooks)).toEqual(['openMarkets', 'withoutBook', 'p50AgeSec', 'p90AgeSec', 'maxAgeSec']);
    expect(Object.keys(report.intake)).toEqual(['sinceAt', 'byEndpoint', 'totals', 'upstreamChanges', 'quarantine']);
    expect(Object.keys(report.database)).toEqual(['totalBytes', 'tables', 'retention']);
    expect(Object.keys(report.database.tables[0])).toEqual(['table', 'bytes', 'rowsEstimate', 'partitionOf', 'packed']);
    expect(Object.keys(report.requestRate)).toEqual([
      'windowSec',
      'fromAt',
      'toAt',
      'requests',
      'requestsPerMin',
      'limitRpm',
      'usedPercent',
      'runningRuns',
      'byJob',
      'server',
    ]);
  });

  it('exits 1 when the data is older than allowed, and 0 when told to allow it', async () => {
    const [text, allowed] = await Promise.all([status(stale), status(stale, '--max-age-sec', '10800', '--max-book-age-sec', '10800')]);
    expect(text.code).toBe(UNHEALTHY);
    expect(text.stdout).toMatch(/: UNHEALTHY\n {2}- listing kalshi\/crypto: latest complete crawl ended 2h ago \(allowed 20m\)\n/);
    expect(text.stdout).toMatch(/\n {2}- order books: the oldest of the \d+ open markets' books is 2h old \(allowed 1h 2m\)\n/);
    expect(text.stderr).toMatch(/^prediction-ingest: unhealthy: listing kalshi\/crypto: latest complete crawl ended 2h ago/);
    expect(allowed).toMatchObject({ code: 0, stderr: '' });
  });

  it('exits 1 once a job’s latest run failed', async () => {
    // Into the healthy database, after the tests that read it as such.
    let failedRunId = 0;
    const options = { providers: KNOWN_PROVIDERS, categories: CONCRETE_CATEGORIES };
    await expect(
      runJob(healthy.sql, client, 'orderbooks', options, (ctx) => {
        failedRunId = ctx.runId;
        return Promise.reject(new Error('the order-book endpoint answered nonsense'));
      }),
    ).rejects.toThrow('nonsense');
    const result = await status(healthy, '--json');
    expect(result.code).toBe(UNHEALTHY);
    const message = `orderbooks: latest run ${failedRunId} failed: the order-book endpoint answered nonsense`;
    expect(result.stderr).toBe(`prediction-ingest: unhealthy: ${message}\n`);
    expect(json(result.stdout).problems).toEqual([{ kind: 'last_run_failed', severity: 'unhealthy', message }]);
  });

  it('exits 6 when the only problem is a degraded run', async () => {
    const text = await status(degraded);
    expect(text.code).toBe(6);
    expect(text.stdout).toMatch(/: DEGRADED\n {2}- sync: latest run 1 is degraded: rejected \d+ of \d+ records/);
    expect(text.stderr).toMatch(/^prediction-ingest: degraded: sync: latest run 1 is degraded/);
  });

  it('exits 1 on an empty database, saying nothing was ingested', async () => {
    const empty = await database();
    const result = await status(empty, '--json');
    expect(result.code).toBe(UNHEALTHY);
    expect(result.stderr).toBe(
      'prediction-ingest: unhealthy: no run recorded yet: nothing has been ingested into this database; to get data, run `npm run demo` (a simulated upstream, no key needed), or `migrate` then `sync` (or `npm start`) against the API\n',
    );
    const report = json(result.stdout) as Record<string, any>;
    expect(report).toMatchObject({ verdict: 'unhealthy', healthy: false, problems: [{ kind: 'no_runs' }] });
    expect(report.jobs.map((j: { lastRun: unknown }) => j.lastRun)).toEqual([null, null, null, null, null]);
  });

  it('exits 1 on a database that was never migrated, says how to get data, and changes nothing there', async () => {
    const bare = await createTestDatabase({ migrated: false });
    databases.push(bare);
    const result = await status(bare);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'prediction-ingest: the database holds no data: nothing has run against it yet; to get data, run `npm run demo` (a simulated upstream, no key needed), or `migrate` then `sync` (or `npm start`) against the API\n',
    );
    const [schemas] = await bare.sql<
      { n: number }[]
    >`select count(*)::int as n from pg_namespace where nspname in ('prediction', 'analytics')`;
    expect(schemas!.n).toBe(0);
  });

  it("measures the request rate against the running service's rate when it stored one", async () => {
    const db = await database();
    await recordServiceSettings(db.sql, {
      instanceId: 'demo-host-1',
      schedules: { crawl: '*/20 * * * * *', details: '*/30 * * * * *', orderbooks: '*/10 * * * * *', trades: '*/15 * * * * *' },
      orderBookMaxAgeSec: 120,
      rateLimitRpm: 3000,
    });
    const result = await status(db, '--json');
    expect(json(result.stdout).requestRate).toMatchObject({ limitRpm: 3000 });
  });

  it('exits 4 when the database is unreachable, and 2 on a bad --since', async () => {
    const [unreachable, badSince] = await Promise.all([
      runCli(['status'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }),
      status(healthy, '--since', 'yesterday'),
    ]);
    expect(unreachable.code).toBe(4);
    expect(unreachable.stderr).toMatch(
      /^prediction-ingest: Database unreachable: .*ECONNREFUSED.*: nothing listens there: start the server, or correct the host and port/,
    );
    expect(badSince.code).toBe(2);
    expect(badSince.stderr).toContain("option '--since <when>' argument 'yesterday' is invalid. Must be a duration before now");
  });
});
