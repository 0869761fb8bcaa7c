import { type AddressInfo, createServer } from 'node:net';

import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createMetrics } from '../../src/ops/metrics.js';
import { createReadiness } from '../../src/ops/readiness.js';
import { type OpsServer, startOpsServer } from '../../src/ops/startOpsServer.js';
import { type TestDatabase, useTestDatabase } from '../helpers/testDatabase.js';
import { proxyDatabase, type TcpProxy } from './tcpProxy.js';

const MINUTE = 60_000;
const clients: postgres.Sql[] = [];
/** A one-connection pool of its own, as the service should give its readiness probe. */
function probePool(url: string): postgres.Sql {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  clients.push(sql);
  return sql;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.end({ timeout: 1 })));
});

let db: TestDatabase;
beforeAll(async () => {
  db = await useTestDatabase({ migrated: false });
});

describe('readiness: the database', () => {
  it('is ready when the database answers', async () => {
    const readiness = createReadiness({ sql: probePool(db.url), jobs: [], lastSuccess: () => null });
    expect(await readiness()).toEqual({ ready: true, checks: { database: { ok: true } } });
  });

  it('is not ready when nothing listens at the database address: a generic detail, the driver error kept as the cause', async () => {
    const readiness = createReadiness({ sql: probePool('postgres://nobody:secret@127.0.0.1:1/none'), jobs: [], lastSuccess: () => null });
    const result = await readiness();
    expect(result.ready).toBe(false);
    expect(result.checks.database).toEqual({
      ok: false,
      detail: 'database unreachable (the cause is in the service log)',
      cause: expect.any(Error),
    });
    expect(result.checks.database!.cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('is not ready when the database does not answer in time', async () => {
    // A server that accepts the TCP connection and then says nothing: postgres.js would wait.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const port = (silent.address() as AddressInfo).port;
    try {
      const readiness = createReadiness({
        sql: probePool(`postgres://u@127.0.0.1:${port}/db`),
        jobs: [],
        lastSuccess: () => null,
        timeoutMs: 200,
      });
      const result = await readiness();
      expect(result).toEqual({ ready: false, checks: { database: { ok: false, detail: 'no answer to select 1 within 200 ms' } } });
    } finally {
      silent.close();
    }
  });
});

describe('readiness: a probe that hangs while new connections are refused', () => {
  let proxy: TcpProxy | undefined;
  afterAll(async () => proxy?.stop());

  it('cancels the hung probe without an unhandled rejection when the cancel request cannot connect', async () => {
    let url: string;
    ({ proxy, url } = await proxyDatabase(db.url));
    const sql = probePool(url);
    await sql`select 1`;
    // The connection hangs (a network partition, a failover), and new ones are refused: the
    // cancel request, which needs a connection of its own, fails.
    proxy.freeze();
    await proxy.refuseNew();
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const readiness = createReadiness({ sql, jobs: [], lastSuccess: () => null, timeoutMs: 200 });
      expect(await readiness()).toEqual({
        ready: false,
        checks: { database: { ok: false, detail: 'no answer to select 1 within 200 ms' } },
      });
      // The cancel's connection attempt is refused within milliseconds on loopback.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});

describe('/readyz when the database refuses the login', () => {
  it("answers a generic detail, not the server's message naming the role", async () => {
    const url = new URL(db.url);
    url.username = 'no_such_role_x7';
    const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
    const server = await startOpsServer({
      port: 0,
      metrics: createMetrics({ processMetrics: false }),
      readiness: createReadiness({ sql: probePool(url.toString()), jobs: [], lastSuccess: () => null }),
      logger: { info: () => {}, warn: (obj, msg) => void warnings.push({ obj: obj as Record<string, unknown>, msg }) },
    });
    try {
      const res = await fetch(`${server.url}/readyz`);
      const text = await res.text();
      expect(res.status).toBe(503);
      expect(JSON.parse(text)).toEqual({
        ready: false,
        checks: { database: { ok: false, detail: 'database unreachable (the cause is in the service log)' } },
      });
      expect(text).not.toContain('no_such_role_x7');
      expect(errorText(warnings.find((w) => w.msg === 'readiness check failed')?.obj.err)).toContain('no_such_role_x7');
    } finally {
      await server.close();
    }
  });
});

describe('readiness: the jobs', () => {
  const START = Date.UTC(2025, 0, 1);
  const jobs = [
    { name: 'crawl', expectedPeriodMs: 10 * MINUTE },
    { name: 'books', expectedPeriodMs: 30 * MINUTE },
  ];
  function setup() {
    const clock = { now: START };
    const metrics = createMetrics({ processMetrics: false, now: () => clock.now });
    const readiness = createReadiness({ sql: probePool(db.url), jobs, lastSuccess: metrics.lastSuccess, now: () => clock.now });
    return { clock, metrics, readiness };
  }

  it('gives a job that never succeeded a grace of two periods from start', async () => {
    const { clock, readiness } = setup();
    let result = await readiness();
    expect(result.ready).toBe(true);
    expect(result.checks['job:crawl']).toEqual({ ok: true, detail: 'no success yet; within the start-up grace of 20m (0s elapsed)' });

    clock.now = START + 20 * MINUTE;
    expect((await readiness()).ready).toBe(true);

    clock.now = START + 20 * MINUTE + 1;
    result = await readiness();
    expect(result.ready).toBe(false);
    expect(result.checks['job:crawl']).toEqual({ ok: false, detail: 'no success in the 20m since start (allowed 20m)' });
    expect(result.checks['job:books']!.ok).toBe(true);
    expect(result.checks.database).toEqual({ ok: true });
  });

  it('is ready while each last success is within two periods, and not after', async () => {
    const { clock, metrics, readiness } = setup();
    clock.now = START + 5 * MINUTE;
    metrics.markJobSuccess('crawl', clock.now);
    metrics.markJobSuccess('books', clock.now);

    clock.now += 20 * MINUTE;
    let result = await readiness();
    expect(result.ready).toBe(true);
    expect(result.checks['job:crawl']).toEqual({ ok: true, detail: 'last success 20m ago (allowed 20m)' });

    clock.now += 1;
    result = await readiness();
    expect(result.ready).toBe(false);
    expect(result.checks['job:crawl']!.ok).toBe(false);
    expect(result.checks['job:crawl']!.detail).toBe('last success 20m ago, more than the 20m allowed');
    expect(result.checks['job:books']!.ok).toBe(true);

    metrics.markJobSuccess('crawl', clock.now);
    expect((await readiness()).ready).toBe(true);
  });

  it('accepts a last success read asynchronously, e.g. from the database', async () => {
    const sql = probePool(db.url);
    const readiness = createReadiness({
      sql,
      jobs: [{ name: 'crawl', expectedPeriodMs: 10 * MINUTE }],
      // What a standby would do: ask the database when the job (run by whichever instance) last succeeded.
      lastSuccess: async () => {
        const [row] = await sql<{ ms: number }[]>`select (extract(epoch from now() - interval '5 minutes') * 1000)::float8 as ms`;
        return row!.ms;
      },
    });
    const result = await readiness();
    expect(result.ready).toBe(true);
    expect(result.checks['job:crawl']!.detail).toMatch(/^last success 5m( \ds)? ago \(allowed 20m\)$/);
  });

  it('is not ready when the last success does not come in time', async () => {
    const sql = probePool(db.url);
    // Connected beforehand: the 200 ms are for the hanging last success, not for a first connection.
    await sql`select 1`;
    const readiness = createReadiness({
      sql,
      jobs: [{ name: 'crawl', expectedPeriodMs: MINUTE }],
      lastSuccess: () => new Promise<number>(() => {}),
      timeoutMs: 200,
    });
    const result = await readiness();
    expect(result.ready).toBe(false);
    expect(result.checks['job:crawl']).toEqual({ ok: false, detail: 'no answer about the last success within 200 ms' });
    expect(result.checks.database).toEqual({ ok: true });
  });

  it('is not ready when the last success cannot be read, keeping the error out of the detail', async () => {
    const broken = new Error('cache broken');
    const readiness = createReadiness({
      sql: probePool(db.url),
      jobs: [{ name: 'crawl', expectedPeriodMs: MINUTE }],
      lastSuccess: () => {
        throw broken;
      },
    });
    const result = await readiness();
    expect(result.ready).toBe(false);
    expect(result.checks['job:crawl']).toEqual({
      ok: false,
      detail: 'cannot read the last success (the cause is in the service log)',
      cause: broken,
    });
    const failed = new Error('query failed', { cause: new Error('connect ECONNRESET 10.0.0.5:5432') });
    const rejecting = createReadiness({
      sql: probePool(db.url),
      jobs: [{ name: 'crawl', expectedPeriodMs: MINUTE }],
      lastSuccess: async () => {
        throw failed;
      },
      lastOutcome: async () => {
        throw failed;
      },
    });
    expect((await rejecting()).checks['job:crawl']).toEqual({
      ok: false,
      detail: 'cannot read the last success (the cause is in the service log)',
      cause: failed,
    });
    const outcomeOnly = createReadiness({
      sql: probePool(db.url),
      jobs: [{ name: 'crawl', expectedPeriodMs: MINUTE }],
      lastSuccess: () => Date.now(),
      lastOutcome: async () => {
        throw failed;
      },
    });
    expect((await outcomeOnly()).checks['job:crawl']).toEqual({
      ok: false,
      detail: 'cannot read the latest run (the cause is in the service log)',
      cause: failed,
    });
  });
});

describe('/readyz while the database goes away and comes back', () => {
  let proxy: TcpProxy;
  let server: OpsServer;
  const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
  beforeAll(async () => {
    let viaProxy: string;
    ({ proxy, url: viaProxy } = await proxyDatabase(db.url));
    const metrics = createMetrics({ processMetrics: false });
    server = await startOpsServer({
      port: 0,
      metrics,
      readiness: createReadiness({ sql: probePool(viaProxy.toString()), jobs: [], lastSuccess: metrics.lastSuccess }),
      logger: { info: () => {}, warn: (obj, msg) => void warnings.push({ obj: obj as Record<string, unknown>, msg }) },
    });
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.stop();
  });

  it('turns 503 while the database is unreachable, telling the caller no driver text (the log gets it), and 200 again when it returns', async () => {
    const readyz = async () => {
      const res = await fetch(`${server.url}/readyz`);
      const text = await res.text();
      return {
        status: res.status,
        text,
        body: JSON.parse(text) as { ready: boolean; checks: Record<string, { ok: boolean; detail?: string }> },
      };
    };
    expect((await readyz()).status).toBe(200);

    await proxy.stop();
    const down = await readyz();
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      ready: false,
      checks: { database: { ok: false, detail: 'database unreachable (the cause is in the service log)' } },
    });
    expect(down.text).not.toMatch(/ECONN|127\.0\.0\.1|select 1 failed|"cause"/);
    // The details went to the server's log instead, with the driver's error itself.
    const logged = warnings.find((w) => w.msg === 'readiness check failed');
    expect(logged?.obj.check).toBe('database');
    expect(errorText(logged?.obj.err)).toMatch(/ECONNREFUSED|ECONNRESET|CONNECTION_CLOSED|CONNECTION_ENDED/);
    expect((await readyz()).status).toBe(503);

    await proxy.start();
    const back = await readyz();
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ ready: true, checks: { database: { ok: true } } });
  });
});

/** An error's message and its causes' messages and codes, to see what reached the log. */
function errorText(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause) parts.push(`${(e as { code?: string }).code ?? ''} ${e.message}`);
  return parts.join(': ');
}
