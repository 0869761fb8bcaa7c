import { access, chmod, mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, connect, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { resolveClientOptions } from '../../src/api/client/PredictionClientOptions.js';
import { withoutCredentials } from '../../src/net/withoutCredentials.js';
import type { Simulator } from '../../src/simulator/index.js';
import { freePort } from '../helpers/freePort.js';
import { runCli } from '../helpers/runCli.js';
import { EVERY_SECOND, startTestService } from '../helpers/serviceHarness.js';
import { spawnCli } from '../helpers/spawnCli.js';
import { API_KEY, startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase } from '../helpers/testDatabase.js';

let sim: Simulator;
beforeAll(async () => {
  ({ sim } = await startHarness({ seed: 5, markets: 120, faults: { latencyMs: 5 } }));
});
afterAll(() => sim.stop());

const serveEnv = (databaseUrl: string, upstream: Simulator = sim) => ({
  DATABASE_URL: databaseUrl,
  PREDICTION_API_URL: upstream.url,
  PREDICTION_API_KEY: API_KEY,
  PREDICTION_RATE_LIMIT_RPM: '1000000',
  CRAWL_SCHEDULE: EVERY_SECOND,
  DETAILS_SCHEDULE: EVERY_SECOND,
  ORDERBOOK_SCHEDULE: EVERY_SECOND,
  TRADES_SCHEDULE: EVERY_SECOND,
  OPS_PORT: '0',
  LOG_LEVEL: 'info',
});

/** What the `serve` child's client sends at once: it sets no concurrency, so the client's default. */
const CLIENT_CONCURRENCY = resolveClientOptions({ baseUrl: 'http://127.0.0.1/unused' }).concurrency;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SIGKILL to a process group that may already be gone. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Roles belong to the server, not to a test's database: dropped once that database is gone. */
async function dropRole(role: string): Promise<void> {
  const admin = postgres(inject('pgAdminUrl'), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop role if exists ${role}`).finally(() => admin.end());
}

/** Markets in the listings of a `status --json` report. */
function marketsIn(report: string): number {
  const parsed = JSON.parse(report) as { freshness: { listings: { markets: number }[] } };
  return parsed.freshness.listings.reduce((n, l) => n + l.markets, 0);
}

describe('the service as a process', () => {
  it('on SIGTERM mid-run: exits 0 within the bound, sends nothing more, leaves no run open', async () => {
    // Its own, larger world: each order-book sweep asks for about 180 books, several hundred a
    // second, so a service that went on after the signal would send far more than the bound below.
    // (With the shared world's ~70 books a run that merely finished would stay near the bound.)
    const { sim: upstream } = await startHarness({ seed: 5, markets: 300, faults: { latencyMs: 5 } });
    const db = await createTestDatabase();
    const serve = spawnCli(['serve'], serveEnv(db.url, upstream));
    try {
      await serve.waitFor(/"msg":"service started"/);
      const before = upstream.requests.length;
      const booksAsked = () => upstream.requests.slice(before).filter((r) => r.path.includes('/orderbook/')).length;
      // Mid-sweep, where most requests are yet to be sent.
      await expect.poll(booksAsked, { timeout: 30_000, interval: 5 }).toBeGreaterThanOrEqual(20);
      const signalledAt = Date.now();
      serve.child.kill('SIGTERM');
      const code = await serve.exited;
      expect(code).toBe(0);
      expect(Date.now() - signalledAt).toBeLessThan(25_000);
      // A count, not a time: arrivals are stamped here, in a process a loaded machine may pause.
      // After the signal there may still arrive what was in flight (one client queue's worth) and
      // what the child sent before its handler ran (answers completing in that event-loop pass free
      // at most as many slots again); nothing beyond that.
      const arrivedAfterSignal = upstream.requests.filter((r) => r.timeMs >= signalledAt).length;
      expect(arrivedAfterSignal).toBeLessThanOrEqual(2 * CLIENT_CONCURRENCY);
      const open = await db.sql`select job from prediction.ingest_runs where status = 'running'`;
      expect(open).toEqual([]);
      const doubled =
        await db.sql`select market_id from prediction.market_state_history where valid_to is null group by market_id having count(*) > 1`;
      expect(doubled).toEqual([]);
      expect(serve.stdout()).not.toContain(API_KEY);
      // Cutting runs off is what a stop does: logged as such, not as errors.
      expect(serve.stdout()).not.toContain('"level":"error"');
    } finally {
      if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
      await db.close();
      await upstream.stop();
    }
  }, 120_000);

  it('a hot standby takes over when the instance running the jobs is killed', async () => {
    const db = await createTestDatabase();
    try {
      // A killed instance cannot release its job leases: they expire after their TTL, short here.
      const leader = spawnCli(['serve'], { ...serveEnv(db.url), PREDICTION_LEASE_TTL_SEC: '2' });
      await leader.waitFor(/"msg":"service started"/);
      const { service: standby } = await startTestService(sim, db.url, { schedules: { trades: EVERY_SECOND } });
      try {
        await sleep(2_000);
        leader.child.kill('SIGKILL');
        await leader.exited;
        const killedAt = new Date();
        const succeededSince = async () =>
          (
            await db.sql`select job from prediction.ingest_runs where started_at > ${killedAt} and status = 'succeeded' group by job order by job`
          ).map((r) => r.job);
        await expect.poll(succeededSince, { timeout: 30_000, interval: 250 }).toEqual(['crawl', 'details', 'orderbooks', 'trades']);
        // Runs that started after the kill may belong to ticks claimed before it (waiting for the
        // killed leader's leases to expire): the claims made since the kill are the standby's alone.
        const claimersSince = async () =>
          (await db.sql`select distinct instance_id from prediction.job_ticks where claimed_at > ${killedAt}`).map((c) => c.instance_id);
        await expect.poll(claimersSince, { timeout: 30_000, interval: 250 }).toEqual([standby.instanceId]);
      } finally {
        await standby.stop();
      }
      const open = await db.sql`select job from prediction.ingest_runs where status = 'running'`;
      expect(open).toEqual([]);
    } finally {
      await db.close();
    }
  }, 150_000);

  it('npm start without a key sends nothing and says how to set one or run the demo', async () => {
    const result = await runCli(['serve'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x' });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('PREDICTION_API_KEY');
    expect(result.stderr).toContain('npm run demo');
  });

  it('refuses to mix data from another upstream into a database without the flag', async () => {
    const db = await createTestDatabase();
    try {
      await db.sql`insert into prediction.upstream_sources values ('https://elsewhere.example/prediction/v1', now(), now())`;
      const result = await runCli(['serve'], serveEnv(db.url));
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--allow-upstream-change');
    } finally {
      await db.close();
    }
  });

  it('the demo writes the database the commands read, during and after it, says each finished job in a line, and stops cleanly on Ctrl-C', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'prediction-demo-'));
    await chmod(dataDir, 0o755);
    const port = await freePort();
    const env = { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port), OPS_PORT: '0' };
    const demo = spawnCli(['demo'], env, { ownProcessGroup: true });
    try {
      const [, databaseUrl] = await demo.waitFor(/data arrives in (postgres:\/\/\S+)/, 90_000);
      // Said first, before the seconds the embedded server takes to start.
      expect(demo.stderr().split('\n').slice(0, 2)).toEqual([
        'prediction-ingest demo: starting a simulated upstream and the embedded Postgres…',
        `prediction-ingest: starting the embedded Postgres in ${path.join(dataDir, 'pg')}…`,
      ]);
      expect(new URL(databaseUrl!).pathname).toBe('/prediction');
      const sql = postgres(databaseUrl!, { max: 1, onnotice: () => {} });
      try {
        let markets = 0;
        for (let i = 0; i < 300 && markets === 0; i++) {
          await sleep(100);
          [{ markets }] = (await sql`select count(*)::int as markets from prediction.markets`) as unknown as [{ markets: number }];
        }
        expect(markets).toBeGreaterThan(0);
      } finally {
        await sql.end();
      }
      // Not a terminal here, and still human lines: the demo is always watched by a person.
      await demo.waitFor(/^\[[\d: -]+\] INFO: crawl finished in \d+\.\d s · \d+ requests · \d+\/\d+ records written · run \d+$/m, 30_000);
      // As a terminal's Ctrl-C: SIGINT to the whole process group. The embedded Postgres must not
      // get it (it would stop under the app's feet and leave the app waiting for it to exit).

      // With no DATABASE_URL, a command attaches to the demo's server and reads the demo's database.
      const during = await runCli(['status', '--json'], env);
      expect(during.stderr).toContain(`embedded Postgres at postgres://127.0.0.1:${port}/prediction`);
      expect(during.stderr).not.toContain('starting the embedded Postgres');
      expect(marketsIn(during.stdout)).toBeGreaterThan(0);
      const out = path.join(dataDir, 'export');
      const exported = await runCli(['export', '--out', out, '--tables', 'markets'], env);
      expect(exported.code).toBe(0);
      expect(exported.stdout).toMatch(/ {2}markets: [1-9]\d* file\(s\) written \([1-9]\d* rows\)/);
      // A server that checks passwords: a wrong one is said as such, still exit 4.
      const wrong = new URL(databaseUrl!);
      wrong.password = 'Wr0ngXyzzy91';
      const refused = await runCli(['status'], { DATABASE_URL: wrong.href });
      expect(refused.code).toBe(4);
      expect(refused.stderr).toMatch(
        /^prediction-ingest: Database refused the login: .*password authentication failed.* \(SQLSTATE 28P01\): check the user name and password of DATABASE_URL/,
      );
      expect(refused.stderr).not.toContain('Wr0ngXyzzy91');

      process.kill(-demo.child.pid!, 'SIGINT');
      expect(await demo.exited).toBe(0);
      expect(demo.stdout() + demo.stderr()).not.toMatch(/CONNECTION_CLOSED|took too long/);

      // After the demo, the next command starts the embedded server again, finds the data, and stops the server.
      const after = await runCli(['status', '--json'], env);
      expect(after.stderr).toContain(`prediction-ingest: starting the embedded Postgres in ${path.join(dataDir, 'pg')}…`);
      expect(marketsIn(after.stdout)).toBeGreaterThanOrEqual(marketsIn(during.stdout));
      await expect(answers(port)).resolves.toBe(false);
    } finally {
      killGroup(demo.child.pid!);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('the demo on DATABASE_URL prints it without its password, and refuses a database that holds another upstream', async () => {
    const db = await createTestDatabase();
    // A login of its own, whose password the demo must not print.
    const role = `demo_${process.pid}`;
    await db.sql.unsafe(`create role ${role} login superuser password 'Hunter2-Secret'`);
    const url = new URL(db.url);
    url.username = role;
    url.password = 'Hunter2-Secret';
    const withPassword = url.href;
    try {
      const demo = spawnCli(['demo'], { DATABASE_URL: withPassword, OPS_PORT: '0' }, { ownProcessGroup: true });
      try {
        await demo.waitFor(/Ctrl-C stops it/, 90_000);
        process.kill(-demo.child.pid!, 'SIGINT');
        expect(await demo.exited).toBe(0);
      } finally {
        killGroup(demo.child.pid!);
      }
      const printed = demo.stdout() + demo.stderr();
      expect(printed).toContain(`data arrives in ${withoutCredentials(withPassword)}`);
      expect(printed).toContain(`psql "$DATABASE_URL" -c`);
      expect(printed).not.toContain('Hunter2-Secret');

      await db.sql`update prediction.upstream_sources set api_url = 'https://elsewhere.example/prediction/v1'`;
      const refused = await runCli(['demo'], { DATABASE_URL: withPassword, OPS_PORT: '0' });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        'This database holds data from https://elsewhere.example/prediction/v1: the demo would mix its simulated data into it. Run the demo without DATABASE_URL',
      );
      expect(refused.stderr).not.toContain('--allow-upstream-change');
    } finally {
      await db.close();
      await dropRole(role);
    }
  }, 120_000);

  it('says why the embedded Postgres could not start on a port already taken, instead of hanging or exiting silently', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'prediction-busy-port-'));
    await chmod(dataDir, 0o755);
    // Something that is not Postgres holds the port.
    const squatter = createServer((socket) => socket.destroy());
    const port = await new Promise<number>((resolve) =>
      squatter.listen(0, '127.0.0.1', () => resolve((squatter.address() as AddressInfo).port)),
    );
    try {
      const result = await runCli(['status'], { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port) });
      expect(result.code).not.toBe(0);
      expect(result.code).not.toBe(13);
      expect(result.stderr).toContain(`Could not start the embedded Postgres in ${path.join(dataDir, 'pg')} on port ${port}`);
      expect(result.stderr).toContain('EMBEDDED_PG_PORT');
    } finally {
      squatter.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('Ctrl-C while the embedded Postgres starts stops that server too, and the command ends as interrupted', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'prediction-start-stop-'));
    await chmod(dataDir, 0o755);
    const port = await freePort();
    const env = { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port) };
    // A first run creates the cluster (initdb) and stops its server: the next one only starts it.
    expect((await runCli(['migrate'], env, 120_000)).code).toBe(0);
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
    expect(await exists(pidFile)).toBe(false);
    // The window between the server's pid file and its readiness is short (tens of milliseconds):
    // an attempt whose command already reported the database ready is stopped and made again.
    let stopped = false;
    for (let attempt = 0; attempt < 5 && !stopped; attempt++) {
      const migrate = spawnCli(['migrate'], env, { ownProcessGroup: true });
      try {
        // The server writes its pid file as it starts: the app is then waiting for it.
        for (let i = 0; i < 18_000 && !(await exists(pidFile)); i++) await sleep(5);
        expect(await exists(pidFile)).toBe(true);
        const serverGone = async () => {
          // The command stops its server on the way out; the next attempt needs it gone.
          for (let i = 0; i < 2_000 && (await exists(pidFile)); i++) await sleep(5);
        };
        if (migrate.stderr().includes('embedded Postgres at')) {
          process.kill(-migrate.child.pid!, 'SIGINT');
          await migrate.exited;
          await serverGone();
          continue;
        }
        process.kill(-migrate.child.pid!, 'SIGINT');
        expect(await migrate.exited).toBe(130);
        if (migrate.stderr().includes('embedded Postgres at')) {
          await serverGone();
          continue;
        }
        expect(migrate.stderr()).toContain('stopped by SIGINT while the database was starting');
        stopped = true;
        // The server went with it: its port no longer answers, and it removed its pid file.
        expect(await exists(pidFile)).toBe(false);
        expect(await answers(port)).toBe(false);
      } finally {
        killGroup(migrate.child.pid!);
      }
    }
    await rm(dataDir, { recursive: true, force: true });
    expect(stopped, 'no attempt caught the server between its pid file and its readiness').toBe(true);
  }, 120_000);
});

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
