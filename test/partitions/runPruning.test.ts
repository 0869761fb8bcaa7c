import { beforeEach, describe, expect, it } from 'vitest';

import { createPredictionClient } from '../../src/api/client/index.js';
import { ensureMonthPartitions } from '../../src/sql/core/ensureMonthPartitions.js';
import { lastSuccessfulRuns } from '../../src/sql/core/ingestRuns.js';
import { pruneIngestRuns } from '../../src/sql/upkeep/pruneIngestRuns.js';
import { maintainRunPartitions } from '../../src/sync/maintainRunPartitions.js';
import { runJob } from '../../src/sync/runJob.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

async function run(job: string, status: string, finishedDaysAgo: number): Promise<number> {
  const [row] = await db.sql<{ id: string }[]>`
    insert into prediction.ingest_runs (job, status, started_at, finished_at)
    values (${job}, ${status}, ${daysAgo(finishedDaysAgo + 0.01)}, ${daysAgo(finishedDaysAgo)}) returning run_id as id`;
  return Number(row!.id);
}
const runIds = async () =>
  (await db.sql<{ id: string }[]>`select run_id as id from prediction.ingest_runs order by 1`).map((r) => Number(r.id));

describe('ingest_runs pruning', () => {
  beforeEach(async () => {
    await db.sql`truncate prediction.ingest_runs, prediction.crawl_coverage, prediction.rejected_records, prediction.upstream_shapes cascade`;
  });

  it('deletes runs older than the setting, but each job’s latest run and success and the runs other rows name', async () => {
    const oldOk = await run('orderbooks', 'succeeded', 200);
    const oldFailed = await run('orderbooks', 'failed', 199);
    const lastSuccess = await run('details', 'succeeded', 300);
    const lastDetails = await run('details', 'failed', 250);
    const covered = await run('crawl', 'succeeded', 200);
    await db.sql`insert into prediction.crawl_coverage (run_id, provider, category, started_at, finished_at, pages, events_seen, complete)
                 values (${covered}, 'kalshi', 'all', ${daysAgo(200)}, ${daysAgo(200)}, 1, 1, true)`;
    const crawlLatest = await run('crawl', 'succeeded', 100);
    const recent = await run('orderbooks', 'succeeded', 1);
    expect(await pruneIngestRuns(db.sql, 90)).toBe(2);
    expect(await runIds()).toEqual([lastSuccess, lastDetails, covered, crawlLatest, recent].sort((a, b) => a - b));
    expect(await runIds()).not.toContain(oldOk);
    expect(await runIds()).not.toContain(oldFailed);
    expect(await pruneIngestRuns(db.sql, 90)).toBe(0);
  });

  it('ends a crawl or sync with the setting, and each job’s latest success stays one index probe away', async () => {
    await run('orderbooks', 'succeeded', 200);
    await run('orderbooks', 'succeeded', 150);
    const client = createPredictionClient({ baseUrl: 'http://127.0.0.1:9/prediction/v1', allowKeyless: true });
    try {
      await runJob(db.sql, client, 'sync', { providers: [], categories: [] }, (ctx) =>
        maintainRunPartitions(ctx, { retentionMonths: null, runRetentionDays: 90 }),
      );
    } finally {
      await client.close();
    }
    const left = await db.sql<{ job: string }[]>`select job from prediction.ingest_runs order by run_id`;
    expect(left.map((r) => r.job)).toEqual(['orderbooks', 'sync']);
    expect((await lastSuccessfulRuns(db.sql, ['orderbooks', 'sync'])).get('orderbooks')!.getTime()).toBeLessThan(daysAgo(149).getTime());
    const plan = await db.sql.begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      return tx.unsafe(`explain select finished_at from prediction.ingest_runs
        where job = 'orderbooks' and status in ('succeeded', 'degraded') and finished_at is not null order by finished_at desc limit 1`);
    });
    expect(plan.map((r) => Object.values(r)[0]).join('\n')).toContain('ingest_runs_job_success_idx');
  });
});

describe('month creation', () => {
  it('creates at most 12 months in one call, and says why', async () => {
    const before = await db.sql`select count(*)::int as n from pg_inherits where inhparent = 'prediction.pricing_snapshots'::regclass`;
    await expect(ensureMonthPartitions(db.sql, new Date(0), new Date())).rejects.toThrow(/spans \d+ months, more than 12 in one call/);
    expect(await db.sql`select count(*)::int as n from pg_inherits where inhparent = 'prediction.pricing_snapshots'::regclass`).toEqual(
      before,
    );
    expect(await ensureMonthPartitions(db.sql, new Date(Date.UTC(2030, 0, 1)), new Date(Date.UTC(2030, 11, 31)))).toBe(4 * 12);
  });
});
