import { describe, expect, it } from 'vitest';

import { HOT_EVENTS_DEFAULT } from '../../src/config.js';
import { ALL_CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import type { Plan } from '../../src/plan/buildPlan.js';
import { readUniverse } from '../../src/plan/readUniverse.js';
import { jobWork } from '../../src/service/jobKinds.js';
import { recordServiceSettings } from '../../src/sql/coordination/serviceSettings.js';
import { hotListingPages } from '../../src/sync/readHotListings.js';
import { runJob } from '../../src/sync/runJob.js';
import { runCli } from '../helpers/runCli.js';
import { startHarness } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const settings = { orderBookMaxAgeSec: 3600, maxRejectedPercent: 5 };

describe('cli plan', () => {
  it('says there is nothing to plan in a database no crawl has filled, and names a bad --rpm', async () => {
    const [empty, unmigrated] = await Promise.all([useTestDatabase(), useTestDatabase({ migrated: false })]);
    const [nothing, noSchema, badRpm] = await Promise.all([
      runCli(['plan'], { DATABASE_URL: empty.url }),
      runCli(['plan', '--json'], { DATABASE_URL: unmigrated.url }),
      runCli(['plan', '--rpm', '60x'], { DATABASE_URL: empty.url }),
    ]);
    expect(nothing).toMatchObject({ code: 0, stderr: '' });
    expect(nothing.stdout).toBe(
      'nothing to plan yet: no listing of the crawl plan (kalshi/all, polymarket/all) was crawled to its end in this database; to get data, run `npm run demo` (a simulated upstream, no key needed), or `migrate` then `sync` (or `npm start`) against the API\n',
    );
    expect(noSchema.code).toBe(0);
    expect(JSON.parse(noSchema.stdout)).toEqual({
      rpm: 60,
      settingsFrom: { source: 'configuration' },
      nothingToPlan: expect.stringContaining('no prediction schema'),
    });
    expect(badRpm.code).toBe(2);
    expect(badRpm.stderr).toContain("option '--rpm <n>' argument '60x' is invalid");
  });

  it('plans the crawled universe at the rate asked, as text and as JSON', async () => {
    const db = await useTestDatabase();
    const { sim, newClient } = await startHarness({ seed: 3, markets: 120 });
    const client = newClient();
    try {
      const options = { providers: KNOWN_PROVIDERS, categories: [ALL_CATEGORIES], now: () => new Date(sim.world.nowSec * 1000) };
      for (const job of ['crawl', 'orderbooks'] as const) {
        const work = jobWork(job, settings);
        await runJob(db.sql, client, job, options, (ctx) => work(ctx, new Date(8.64e15)));
      }
    } finally {
      await client.close();
      await sim.stop();
    }
    const universe = await readUniverse(db.sql, {
      ...{ providers: KNOWN_PROVIDERS, categories: [ALL_CATEGORIES] },
      orderBookMaxAgeSec: 3600,
      now: new Date(),
    });
    const [json, text] = await Promise.all([
      runCli(['plan', '--rpm', '600', '--json'], { DATABASE_URL: db.url }),
      runCli(['plan'], { DATABASE_URL: db.url, PREDICTION_RATE_LIMIT_RPM: '30' }),
    ]);

    expect(json).toMatchObject({ code: 0, stderr: '' });
    const plan = JSON.parse(json.stdout) as Plan;
    expect(plan.rpm).toBe(600);
    expect(plan.limit).toEqual({ requests: 600, windowSec: 60.5 });
    expect(plan.universe.openMarkets).toBe(universe.openMarkets);
    expect(plan.phases.map((p) => [p.phase, p.job, p.schedule])).toEqual([
      ['listings', 'crawl', '*/10 * * * *'],
      ['details', 'details', '*/15 * * * *'],
      ['books', 'orderbooks', '* * * * *'],
      ['trades', 'trades', '* * * * *'],
    ]);
    // The listings' pages, the closed-events feed's and one count of categories per provider.
    expect(universe.feedRequests).toBe(2 * KNOWN_PROVIDERS.length);
    expect(plan.phases[0]!.requestsPerRun).toBe(universe.listings.reduce((n, l) => n + l.pages, 0) + universe.feedRequests);
    // The service's sweep runs its schedule at the plan's rate: each sweep fills its minute, the
    // busiest of a few dozen books fetched many times, and the plan predicts what that captures.
    expect(plan.books).toMatchObject({ everySweep: false, sweepEverySec: 60 });
    expect(plan.books.booksPerSweep).toBeGreaterThan(2 * universe.openMarkets);
    // The whole budget is used (the replay's edges may count a little over it).
    const used = plan.phases.reduce((n, p) => n + p.requestsPerMinute, 0);
    expect(plan.unusedPerMinute).toBeLessThan(0.01 * plan.budgetPerMinute);
    expect(used).toBeGreaterThan(0.99 * plan.budgetPerMinute);
    expect(used).toBeLessThan(1.02 * plan.budgetPerMinute);
    expect(plan.information).toMatchObject({ openMarkets: universe.openMarkets });
    // The sweep's requests less the busiest events' pages it reads (none by default).
    const pagesPerMinute = (hotListingPages(HOT_EVENTS_DEFAULT) * KNOWN_PROVIDERS.length * 60) / plan.phases[2]!.everySec;
    expect(plan.information!.fetchesPerSec).toBeCloseTo((plan.phases[2]!.requestsPerMinute - pagesPerMinute) / 60, 6);
    expect(plan.information!.predictedFv).toBeGreaterThan(0);
    expect(plan.information!.predictedFv).toBeLessThanOrEqual(1);

    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toMatch(
      /^settings of this process's configuration: no service has stored its own in this database\nplan at 30 requests\/min \(PREDICTION_RATE_LIMIT_RPM\)\n/,
    );
    expect(shareTotal(text.stdout)).toBe('100.0');
    expect(text.stdout).toContain(`books     ${universe.openMarkets} open markets, ${universe.dueBooks} due now`);
    expect(text.stdout).toMatch(/\n {2}books +orderbooks +\* \* \* \* \* /);
    expect(text.stdout).toMatch(/\ninformation per request\n {2}[\d.]+ book fetches\/s against [\d.]+ estimated book changes\/s/);
    expect(text.stdout).toMatch(/predicted Fv [\d.]+ /);
    expect(text.stdout).toMatch(/\n {2}each market's fetch(es taken as evenly spaced|\s?intervals taken as uneven)/);

    // A service stored the settings it runs with: the plan replays those, not its own process's.
    await recordServiceSettings(db.sql, {
      instanceId: 'host-1-abc',
      schedules: { crawl: '*/20 * * * * *', details: '*/30 * * * * *', orderbooks: '*/10 * * * * *', trades: '*/15 * * * * *' },
      orderBookMaxAgeSec: 120,
      rateLimitRpm: 3000,
    });
    const [service, serviceJson] = await Promise.all([
      runCli(['plan'], { DATABASE_URL: db.url, PREDICTION_RATE_LIMIT_RPM: '30' }),
      runCli(['plan', '--json', '--rpm', '100'], { DATABASE_URL: db.url }),
    ]);
    expect(service).toMatchObject({ code: 0, stderr: '' });
    expect(service.stdout).toMatch(
      /^settings of the service started at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(host-1-abc\): its schedules, ORDERBOOK_MAX_AGE_SEC and rate\nplan at 3,000 requests\/min/,
    );
    expect(service.stdout).toMatch(/\n {2}books +orderbooks +\*\/10 \* \* \* \* \* /);
    expect(service.stdout).toContain('due now (never fetched, or older than 120 s)');
    expect(shareTotal(service.stdout)).toBe('100.0');
    const stored = JSON.parse(serviceJson.stdout) as Plan & { settingsFrom: { source: string; instanceId: string } };
    // --rpm still wins over the service's rate.
    expect(stored.rpm).toBe(100);
    expect(stored.settingsFrom).toMatchObject({ source: 'service', instanceId: 'host-1-abc' });
    expect(stored.phases.map((p) => p.schedule)).toEqual(['*/20 * * * * *', '*/30 * * * * *', '*/10 * * * * *', '*/15 * * * * *']);
    // The shares are of the budget, or of what is sent when the replay sends more: with the unused share, 1.
    const sent = stored.phases.reduce((n, p) => n + p.requestsPerMinute, 0);
    const unusedShare = stored.unusedPerMinute / Math.max(stored.budgetPerMinute, sent);
    expect(stored.phases.reduce((n, p) => n + p.share, 0) + unusedShare).toBeCloseTo(1, 9);
  });
});

/** The sum of the share column of a plan's table of requests a minute, as printed. */
function shareTotal(text: string): string {
  const table = text.slice(text.indexOf('requests a minute\n'), text.indexOf('\norder books'));
  const shares = [...table.matchAll(/([\d.]+) %$/gm)].map((m) => Number(m[1]));
  expect(shares).toHaveLength(5);
  return shares.reduce((n, s) => n + s, 0).toFixed(1);
}
