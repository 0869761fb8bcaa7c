import { describe, expect, it } from 'vitest';

import { finishRun, lastSuccessfulRuns, latestRunStatuses, type RunTotals, startRun } from '../../src/sql/core/ingestRuns.js';
import { runTotals } from '../helpers/runTotals.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();

const at = (min: number) => new Date(Date.UTC(2026, 6, 1, 0, min));
const totals = (overrides: Partial<RunTotals> = {}) =>
  runTotals({ requests: 3, recordsSeen: 50, recordsWritten: 42, recordsRejected: 8 }, overrides);

describe('ingest runs', () => {
  it('record a degraded run with its records by endpoint, under the documented snake_case keys', async () => {
    const runId = await startRun(db.sql, 'degraded-job', at(0));
    const [running] = await db.sql`select status, records_by_endpoint from prediction.ingest_runs where run_id = ${runId}`;
    expect(running).toEqual({ status: 'running', records_by_endpoint: {} });

    await finishRun(
      db.sql,
      runId,
      'degraded',
      totals({
        recordsByEndpoint: {
          '/events': { accepted: 40, acceptedWithDrift: 2, rejected: 1 },
          '/events#markets': { accepted: 0, acceptedWithDrift: 0, rejected: 7 },
        },
      }),
      at(1),
      'rejected 16 % of the records read (threshold 10 %)',
    );
    const [row] = await db.sql`select status, finished_at, error, records_by_endpoint from prediction.ingest_runs where run_id = ${runId}`;
    expect(row).toEqual({
      status: 'degraded',
      finished_at: at(1),
      error: 'rejected 16 % of the records read (threshold 10 %)',
      records_by_endpoint: {
        '/events': { accepted: 40, accepted_with_drift: 2, rejected: 1 },
        '/events#markets': { accepted: 0, accepted_with_drift: 0, rejected: 7 },
      },
    });
  });

  it('still refuse a status outside the documented ones', async () => {
    const runId = await startRun(db.sql, 'odd-job', at(0));
    await expect(finishRun(db.sql, runId, 'halfway' as 'failed', totals(), at(1), null)).rejects.toMatchObject({ code: '23514' });
  });

  it('count a degraded run as a success for freshness, and never a failed or aborted one', async () => {
    const run = async (job: string, start: number, status: 'succeeded' | 'degraded' | 'failed' | 'aborted') =>
      finishRun(db.sql, await startRun(db.sql, job, at(start)), status, totals(), at(start + 1), null);
    await run('fresh', 10, 'succeeded');
    await run('fresh', 20, 'degraded');
    await run('fresh', 30, 'failed');
    await run('never', 10, 'failed');
    await run('never', 20, 'aborted');
    const last = await lastSuccessfulRuns(db.sql, ['fresh', 'never', 'absent']);
    expect([...last]).toEqual([['fresh', at(21)]]);
  });

  it("give the status, end and error of each job's latest finished run, ignoring one still running", async () => {
    const finish = async (job: string, start: number, status: 'succeeded' | 'degraded' | 'failed', error: string | null = null) =>
      finishRun(db.sql, await startRun(db.sql, job, at(start)), status, totals(), at(start + 1), error);
    await finish('readiness-a', 40, 'failed', 'upstream 500');
    await finish('readiness-a', 50, 'succeeded');
    await finish('readiness-b', 40, 'succeeded');
    await finish('readiness-b', 50, 'degraded', 'too many rejected');
    await finish('readiness-c', 40, 'failed', 'timeout');
    await startRun(db.sql, 'readiness-c', at(50)); // running: not finished, not reported
    const latest = await latestRunStatuses(db.sql, ['readiness-a', 'readiness-b', 'readiness-c', 'readiness-none']);
    expect(Object.fromEntries(latest)).toEqual({
      'readiness-a': { status: 'succeeded', finishedAt: at(51), error: null },
      'readiness-b': { status: 'degraded', finishedAt: at(51), error: 'too many rejected' },
      'readiness-c': { status: 'failed', finishedAt: at(41), error: 'timeout' },
    });
  });
});
