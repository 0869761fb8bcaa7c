import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createLiveness } from '../../src/ops/liveness.js';
import { createMetrics } from '../../src/ops/metrics.js';
import { type OpsServer, startOpsServer } from '../../src/ops/startOpsServer.js';
import { type TestDatabase, useTestDatabase } from '../helpers/testDatabase.js';
import { proxyDatabase, type TcpProxy } from './tcpProxy.js';

const MINUTE = 60_000;
const START = Date.UTC(2025, 0, 1);
const jobs = [
  { name: 'orderbooks', expectedPeriodMs: MINUTE },
  { name: 'crawl', expectedPeriodMs: 10 * MINUTE },
];

function setup(periodsAllowed?: number) {
  const clock = { now: START };
  const liveness = createLiveness({ jobs, now: () => clock.now, ...(periodsAllowed === undefined ? {} : { periodsAllowed }) });
  return { clock, liveness };
}

describe('liveness', () => {
  it('gives every job a start-up grace of three periods, and fails once all of them have passed', () => {
    const { clock, liveness } = setup();
    expect(liveness.check()).toEqual({
      live: true,
      checks: {
        'job:orderbooks': { ok: true, detail: 'no progress yet; within the start-up grace of 3m (0s elapsed)' },
        'job:crawl': { ok: true, detail: 'no progress yet; within the start-up grace of 30m (0s elapsed)' },
      },
    });

    // One job past its grace is not enough to call the process stuck: the crawl may still be starting.
    clock.now = START + 3 * MINUTE + 1;
    let result = liveness.check();
    expect(result.live).toBe(true);
    expect(result.checks['job:orderbooks']).toEqual({ ok: false, detail: 'no progress in the 3m since start (allowed 3m)' });

    clock.now = START + 30 * MINUTE;
    expect(liveness.check().live).toBe(true);
    clock.now = START + 30 * MINUTE + 1;
    result = liveness.check();
    expect(result.live).toBe(false);
    expect(result.checks['job:crawl']).toEqual({ ok: false, detail: 'no progress in the 30m since start (allowed 30m)' });
  });

  it('stays live while any job makes progress within its allowance, and not after every one stalled', () => {
    const { clock, liveness } = setup();
    clock.now = START + MINUTE;
    liveness.markProgress('orderbooks');
    liveness.markProgress('crawl');

    // The crawl's last progress was long ago, the order books' recent: still live.
    for (let minute = 2; minute <= 40; minute++) {
      clock.now = START + minute * MINUTE;
      liveness.markProgress('orderbooks');
      expect(liveness.check().live).toBe(true);
    }
    expect(liveness.check().checks['job:crawl']).toEqual({ ok: false, detail: 'last progress 39m ago, more than the 30m allowed' });

    // Then the order books stop too (a tick still running, or every tick failing on the database).
    clock.now += 3 * MINUTE;
    let result = liveness.check();
    expect(result.live).toBe(true);
    expect(result.checks['job:orderbooks']).toEqual({ ok: true, detail: 'last progress 3m ago (allowed 3m)' });
    clock.now += 1;
    result = liveness.check();
    expect(result.live).toBe(false);
    expect(result.checks['job:orderbooks']).toEqual({ ok: false, detail: 'last progress 3m ago, more than the 3m allowed' });

    // Any job moving again makes the process live again.
    liveness.markProgress('crawl');
    result = liveness.check();
    expect(result.live).toBe(true);
    expect(result.checks['job:crawl']).toEqual({ ok: true, detail: 'last progress 0s ago (allowed 30m)' });
  });

  it('takes the number of periods allowed as an option', () => {
    const { clock, liveness } = setup(5);
    clock.now = START + 10 * 5 * MINUTE;
    expect(liveness.check().live).toBe(true);
    clock.now += 1;
    expect(liveness.check().live).toBe(false);
  });

  it('is live with no job to watch', () => {
    expect(createLiveness({ jobs: [] }).check()).toEqual({ live: true, checks: {} });
  });

  it('refuses an unknown job and unusable options', () => {
    const { liveness } = setup();
    expect(() => liveness.markProgress('crawl ')).toThrow(/unknown job "crawl ": liveness watches orderbooks, crawl/);
    expect(() => createLiveness({ jobs, periodsAllowed: 1 })).toThrow(/periodsAllowed must be a number >= 2, got 1/);
    expect(() => createLiveness({ jobs, periodsAllowed: Number.NaN })).toThrow(/periodsAllowed/);
    expect(() => createLiveness({ jobs: [{ name: 'crawl', expectedPeriodMs: 0 }] })).toThrow(/expectedPeriodMs of job crawl/);
    expect(() => createLiveness({ jobs: [...jobs, jobs[0]!] })).toThrow(/listed twice/);
  });
});

describe('/healthz', () => {
  const servers: OpsServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  async function start(options: Partial<Parameters<typeof startOpsServer>[0]>) {
    const server = await startOpsServer({
      port: 0,
      metrics: createMetrics({ processMetrics: false }),
      readiness: async () => ({ ready: true, checks: {} }),
      ...options,
    });
    servers.push(server);
    return server;
  }
  const healthz = async (server: OpsServer) => {
    const res = await fetch(`${server.url}/healthz`);
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it('answers 200 while live, 503 with the failing checks once every job stalled, and 200 again on progress', async () => {
    const { clock, liveness } = setup();
    const warnings: { obj: object; msg: string }[] = [];
    const server = await start({ liveness, logger: { info: () => {}, warn: (obj, msg) => void warnings.push({ obj, msg }) } });
    expect(await healthz(server)).toEqual({ status: 200, body: { status: 'ok' } });

    clock.now = START + 31 * MINUTE;
    const stalled = await healthz(server);
    expect(stalled).toEqual({
      status: 503,
      body: {
        status: 'stalled',
        checks: {
          'job:orderbooks': { ok: false, detail: 'no progress in the 31m since start (allowed 3m)' },
          'job:crawl': { ok: false, detail: 'no progress in the 31m since start (allowed 30m)' },
        },
      },
    });
    expect(warnings).toEqual([{ obj: { checks: (stalled.body as { checks: object }).checks }, msg: 'not live: no job has made progress' }]);
    const head = await fetch(`${server.url}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(503);

    liveness.markProgress('orderbooks');
    expect(await healthz(server)).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('answers 503 when the liveness check throws, without its error text', async () => {
    const server = await start({
      liveness: {
        check() {
          throw new Error('broken at 10.0.0.5');
        },
      },
    });
    expect(await healthz(server)).toEqual({
      status: 503,
      body: { status: 'stalled', checks: { liveness: { ok: false, detail: 'liveness check failed (the cause is in the service log)' } } },
    });
  });
});

/**
 * The rule as the service applies it: a tick is progress only once the database has recorded its
 * outcome, so ticks failing on an unreachable database are not. Ticks are driven by hand on an
 * injected clock: one `select 1` stands for a tick's recorded run.
 */
describe('/healthz while the database goes away', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let sql: postgres.Sql;
  let server: OpsServer;
  const clock = { now: START };
  const liveness = createLiveness({ jobs: [{ name: 'orderbooks', expectedPeriodMs: MINUTE }], now: () => clock.now });

  beforeAll(async () => {
    db = await useTestDatabase({ migrated: false });
    let viaProxy: string;
    ({ proxy, url: viaProxy } = await proxyDatabase(db.url));
    sql = postgres(viaProxy.toString(), { max: 1, onnotice: () => {}, connect_timeout: 5 });
    server = await startOpsServer({
      port: 0,
      metrics: createMetrics({ processMetrics: false }),
      readiness: async () => ({ ready: true, checks: {} }),
      liveness,
    });
  });
  afterAll(async () => {
    await server?.close();
    await sql?.end({ timeout: 1 });
    await proxy?.stop();
  });

  /** One scheduled tick, a period after the previous one: progress only if its outcome got recorded. */
  const tick = async () => {
    clock.now += MINUTE;
    try {
      await sql`select 1`;
      liveness.markProgress('orderbooks');
      return 'recorded';
    } catch {
      return 'failed on the database';
    }
  };
  const status = async () => (await fetch(`${server.url}/healthz`)).status;

  it('keeps 200 through an outage shorter than three periods, turns 503 after, and 200 once ticks are recorded again', async () => {
    expect(await tick()).toBe('recorded');
    expect(await status()).toBe(200);

    await proxy.stop();
    expect(await tick()).toBe('failed on the database');
    expect(await tick()).toBe('failed on the database');
    expect(await tick()).toBe('failed on the database');
    // Three periods since the last recorded tick: exactly the allowance.
    expect(await status()).toBe(200);
    expect(await tick()).toBe('failed on the database');
    expect(await status()).toBe(503);

    await proxy.start();
    expect(await tick()).toBe('recorded');
    expect(await status()).toBe(200);
  });
});
