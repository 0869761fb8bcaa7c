import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ExitCode } from '../../src/cli/exitCodes.js';
import type { Simulator } from '../../src/simulator/index.js';
import { spawnCli } from '../helpers/spawnCli.js';
import { API_KEY, startHarness } from '../helpers/syncHarness.js';
import { type TestDatabase, useTestDatabase } from '../helpers/testDatabase.js';
import { proxyDatabase, type TcpProxy } from '../ops/tcpProxy.js';

let sim: Simulator;
let db: TestDatabase;
let proxy: TcpProxy;
let proxiedUrl: string;

beforeAll(async () => {
  db = await useTestDatabase();
  // Latency, so that the freeze lands in the middle of the run, not after it.
  ({ sim } = await startHarness({ seed: 11, markets: 150, faults: { latencyMs: 15 } }));
  ({ proxy, url: proxiedUrl } = await proxyDatabase(db.url));
});
afterAll(async () => {
  proxy.thaw();
  await proxy.stop();
  await sim.stop();
});

describe('sync behind a database that stops answering', () => {
  it('exits 4 with a clear message within 90 s, and leaves no process behind', async () => {
    const cli = spawnCli(['sync', '--batch-size', '10'], {
      DATABASE_URL: proxiedUrl,
      PREDICTION_API_URL: sim.url,
      PREDICTION_API_KEY: API_KEY,
      PREDICTION_RATE_LIMIT_RPM: '1000000',
      // Short deadlines so the test runs fast; the defaults are checked in databaseDeadlines.test.ts.
      PREDICTION_DB_STATEMENT_TIMEOUT_SEC: '2',
      // The lease outlives the write's deadline: the deadline, not the lease, notices the hang.
      PREDICTION_LEASE_TTL_SEC: '600',
      LOG_LEVEL: 'silent',
    });
    let exited = false;
    void cli.exited.then(() => (exited = true));
    try {
      // The first pages committed (seen without the proxy), then the database hangs mid-run.
      for (;;) {
        const [{ n }] = (await db.sql`select count(*)::int as n from prediction.events`) as unknown as [{ n: number }];
        if (n > 0 || exited) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(exited).toBe(false);
      proxy.freeze();
      const frozenAt = Date.now();

      const code = await cli.exited;
      const elapsedMs = Date.now() - frozenAt;
      expect(code).toBe(ExitCode.databaseUnreachable);
      // Whichever statement the freeze caught: a page write, or any other statement of the run.
      expect(cli.stderr()).toMatch(
        /^prediction-ingest: Database stopped answering: no answer from the database within \d+ s \((write transaction|statement)\); abandoned$/m,
      );
      expect(cli.stdout()).not.toMatch(/sync (succeeded|degraded)/);
      // A generous bound on the promise (a hang would never end); the deadlines here are seconds.
      expect(elapsedMs).toBeLessThan(90_000);
    } finally {
      if (!exited) cli.child.kill('SIGKILL');
    }
  }, 150_000);
});
