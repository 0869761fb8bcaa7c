import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Simulator } from '../../src/simulator/index.js';
import { CLI_ENTRY } from '../helpers/cliEntry.js';
import { dbContent } from '../helpers/dbContent.js';
import { runCli } from '../helpers/runCli.js';
import { cliEnv, referenceSync, startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase } from '../helpers/testDatabase.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let sim: Simulator;

beforeAll(async () => {
  // A little latency so that a kill lands in the middle of the work, not between runs.
  ({ sim } = await startHarness({ seed: 3, faults: { latencyMs: 3 } }));
});
afterAll(() => sim.stop());

// A killed sync cannot release its lease: the next one waits for it to expire.
const env = (databaseUrl: string) => cliEnv(databaseUrl, sim.url, { PREDICTION_LEASE_TTL_SEC: '2' });

/** Starts `sync` in a child process and SIGKILLs it once the simulator has answered `afterRequests` requests. */
async function syncKilledAfter(databaseUrl: string, afterRequests: number): Promise<boolean> {
  const start = sim.requests.length;
  const child = spawn(process.execPath, [CLI_ENTRY, 'sync', '--batch-size', '10'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PREDICTION_ENV_FILE: '/dev/null', ...env(databaseUrl) },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let finished = false;
  void exited.then(() => (finished = true));
  while (!finished && sim.requests.length - start < afterRequests) await new Promise((r) => setTimeout(r, 2));
  const killed = !finished && child.kill('SIGKILL');
  await exited;
  return killed;
}

describe('crash safety', () => {
  it('kill -9 at several points, then a clean run, gives the database of one uninterrupted run', async () => {
    const reference = await createTestDatabase();
    const crashed = await createTestDatabase();
    try {
      await referenceSync(reference.sql, sim);

      // In the listing crawl, mid-crawl, and during the order-book sweep.
      const kills = [];
      for (const after of [2, 9, 40, 90]) kills.push(await syncKilledAfter(crashed.url, after));
      expect(kills.filter(Boolean).length).toBeGreaterThanOrEqual(3);

      // The last killed sync's lease has expired: the clean run does not wait (it would say so on stderr).
      await expect
        .poll(
          async () =>
            (await crashed.sql`select 1 from prediction.job_leases where name = 'sync' and expires_at > clock_timestamp()`).length,
          { timeout: 10_000 },
        )
        .toBe(0);
      const clean = await runCli(['sync'], env(crashed.url));
      expect(clean.stderr).toBe('');
      expect(clean.code).toBe(0);
      expect(clean.stdout).toMatch(/^sync succeeded: run \d+/);

      expect(await dbContent(crashed.sql)).toEqual(await dbContent(reference.sql));
      const runs = await crashed.sql`select status from prediction.ingest_runs order by run_id`;
      expect(runs.at(-1)!.status).toBe('succeeded');
      expect(runs.slice(0, -1).filter((r) => r.status !== 'aborted' && r.status !== 'succeeded')).toEqual([]);
      expect(runs.filter((r) => r.status === 'aborted').length).toBe(kills.filter(Boolean).length);
    } finally {
      await reference.close();
      await crashed.close();
    }
  }, 60_000); // five processes one after the other, each waiting for the lease its killed predecessor left

  it('exits 3 with a one-line message when the key is rejected, having written no data', async () => {
    const db = await createTestDatabase();
    try {
      const result = await runCli(['sync'], { ...env(db.url), PREDICTION_API_KEY: 'wrong-key-123' });
      expect(result.code).toBe(3);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('rejected the key');
      expect(result.stderr + result.stdout).not.toContain('wrong-key-123');
      const [{ n }] = (await db.sql`select count(*)::int as n from prediction.events`) as unknown as [{ n: number }];
      expect(n).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('exits 5 when the API stays down after retries', async () => {
    const db = await createTestDatabase();
    try {
      const result = await runCli(['sync'], { ...env(db.url), PREDICTION_API_URL: 'http://127.0.0.1:9/prediction/v1' }, 120_000);
      expect(result.code).toBe(5);
      expect(result.stderr).toMatch(/^prediction-ingest: The API stayed unavailable after retries/);
      const [run] = await db.sql`select status, error from prediction.ingest_runs`;
      expect(run!.status).toBe('failed');
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe('upstream identity', () => {
  it('sync refuses a database filled from another upstream unless told to mix them', async () => {
    const db = await createTestDatabase();
    try {
      await db.sql`insert into prediction.upstream_sources values ('https://elsewhere.example/prediction/v1', now(), now())`;
      const refused = await runCli(['sync', '--max-orderbooks', '0'], env(db.url));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('https://elsewhere.example/prediction/v1');
      const [{ n }] = (await db.sql`select count(*)::int as n from prediction.events`) as unknown as [{ n: number }];
      expect(n).toBe(0);
      const allowed = await runCli(['sync', '--max-orderbooks', '0', '--allow-upstream-change'], env(db.url));
      expect(allowed.code).toBe(0);
      const sources = await db.sql`select api_url from prediction.upstream_sources order by first_used_at`;
      expect(sources.map((s) => s.api_url)).toEqual(['https://elsewhere.example/prediction/v1', sim.url]);
    } finally {
      await db.close();
    }
  });
});
