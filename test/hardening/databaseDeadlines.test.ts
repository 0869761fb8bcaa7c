import type { Socket } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { createPredictionClient } from '../../src/api/client/index.js';
import { classifyError } from '../../src/cli/classifyError.js';
import { ExitCode } from '../../src/cli/exitCodes.js';
import { parseConfig } from '../../src/config.js';
import { connect, type Database, type Sql } from '../../src/db/connect.js';
import { openPool } from '../../src/db/openPool.js';
import { type DatabaseRole, migrationSettings, ROLE_SETTINGS } from '../../src/db/sessionSettings.js';
import { DatabaseDeadlineError } from '../../src/db/withDeadline.js';
import { writeTransaction } from '../../src/db/writeTransaction.js';
import { runJob } from '../../src/sync/runJob.js';
import { type TestDatabase, useTestDatabase } from '../helpers/testDatabase.js';
import { proxyDatabase, type TcpProxy } from '../ops/tcpProxy.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await useTestDatabase();
  await db.sql`create table public.deadline_probe (id int)`;
});

const opened: Database[] = [];
const proxies: TcpProxy[] = [];
afterEach(async () => {
  // Thawed first, so that the pools close without waiting for their timeout.
  for (const p of proxies) p.thaw();
  await Promise.all(opened.splice(0).map((d) => d.close()));
  await Promise.all(proxies.splice(0).map((p) => p.stop()));
});

function open(url: string, options: Parameters<typeof connect>[1] = {}): Database {
  const database = connect(url, options);
  opened.push(database);
  return database;
}

/** The database URL, through a TCP proxy that can freeze. */
async function viaProxy(): Promise<{ proxy: TcpProxy; url: string }> {
  const proxied = await proxyDatabase(db.url);
  proxies.push(proxied.proxy);
  return proxied;
}

/** What a promise rejects with, and after how long. */
async function rejection(promise: Promise<unknown>): Promise<{ error: Error; elapsedMs: number }> {
  const start = Date.now();
  try {
    await promise;
  } catch (error) {
    return { error: error as Error, elapsedMs: Date.now() - start };
  }
  throw new Error('expected a rejection');
}

const SETTINGS = [
  'statement_timeout',
  'lock_timeout',
  'idle_in_transaction_session_timeout',
  'tcp_keepalives_idle',
  'tcp_keepalives_interval',
  'tcp_keepalives_count',
];

/** The session's settings, as the server reports them (milliseconds for the timeouts, seconds for keep-alives). */
async function sessionSettings(sql: Sql): Promise<Record<string, number | string>> {
  const rows = await sql<{ name: string; setting: string }[]>`
    select name, setting from pg_settings where name = any(${SETTINGS}::text[])
    union all select 'application_name', current_setting('application_name')`;
  return Object.fromEntries(rows.map((r) => [r.name, r.name === 'application_name' ? r.setting : Number(r.setting)]));
}

const KEEP_ALIVE = { tcp_keepalives_idle: 30, tcp_keepalives_interval: 10, tcp_keepalives_count: 3 };

describe('PREDICTION_DB_STATEMENT_TIMEOUT_SEC', () => {
  it('defaults to 20 s and takes a positive number of seconds', () => {
    expect(parseConfig({}).databaseStatementTimeoutSec).toBe(20);
    expect(parseConfig({ PREDICTION_DB_STATEMENT_TIMEOUT_SEC: '45' }).databaseStatementTimeoutSec).toBe(45);
    expect(() => parseConfig({ PREDICTION_DB_STATEMENT_TIMEOUT_SEC: '0' })).toThrow(
      'PREDICTION_DB_STATEMENT_TIMEOUT_SEC must be a positive integer up to 86400, got "0"',
    );
  });
});

describe('every session carries the timeouts of its role', () => {
  it.each<[DatabaseRole | undefined, Record<string, number | string>]>([
    [
      undefined,
      {
        statement_timeout: 20_000,
        lock_timeout: 10_000,
        idle_in_transaction_session_timeout: 5_000,
        application_name: 'prediction-ingest',
      },
    ],
    [
      'writer',
      {
        statement_timeout: 20_000,
        lock_timeout: 10_000,
        idle_in_transaction_session_timeout: 5_000,
        application_name: 'prediction-ingest',
      },
    ],
    [
      'probe',
      {
        statement_timeout: 5_000,
        lock_timeout: 2_000,
        idle_in_transaction_session_timeout: 5_000,
        application_name: 'prediction-ingest probe',
      },
    ],
    [
      'migration',
      {
        statement_timeout: 900_000,
        lock_timeout: 90_000,
        idle_in_transaction_session_timeout: 60_000,
        application_name: 'prediction-ingest migration',
      },
    ],
    [
      'maintenance',
      {
        statement_timeout: 7_200_000,
        lock_timeout: 120_000,
        idle_in_transaction_session_timeout: 60_000,
        application_name: 'prediction-ingest maintenance',
      },
    ],
  ])('role %s: the defaults, seen in pg_settings of its session', async (role, expected) => {
    const database = open(db.url, role === undefined ? {} : { role });
    expect(await sessionSettings(database.sql)).toEqual({ ...expected, ...KEEP_ALIVE });
  });

  it('a migration given a longer statement timeout keeps its client-side deadlines beyond it', async () => {
    const pool = openPool(db.url, migrationSettings(120 * 60_000), { max: 1, applicationName: 'long migration' });
    try {
      expect(await sessionSettings(pool.sql)).toMatchObject({ statement_timeout: 7_200_000, lock_timeout: 90_000 });
      const { statementTimeoutMs, statementDeadlineMs, transactionDeadlineMs, answerDeadlineMs } = pool.settings;
      expect(statementDeadlineMs).toBeGreaterThan(statementTimeoutMs);
      expect(transactionDeadlineMs).toBeGreaterThan(statementDeadlineMs);
      expect(answerDeadlineMs).toBeGreaterThan(transactionDeadlineMs);
      expect(migrationSettings()).toEqual(ROLE_SETTINGS.migration);
    } finally {
      await pool.close();
    }
  });

  it("the writers' statement timeout scales their lock timeout", async () => {
    const database = open(db.url, { statementTimeoutMs: 3_000, applicationName: 'scaled' });
    const expected = {
      statement_timeout: 3_000,
      lock_timeout: 1_500,
      idle_in_transaction_session_timeout: 5_000,
      application_name: 'scaled',
      ...KEEP_ALIVE,
    };
    expect(await sessionSettings(database.sql)).toEqual(expected);
    expect(database.settings).toMatchObject({ transactionDeadlineMs: 4_500, statementDeadlineMs: 6_000 });
  });

  it("the server cancels a writer's statement past its timeout: exit 4", async () => {
    // Its answer deadline (5 s) leaves the server 3 s past its timeout (2 s) to say so on a busy
    // machine; connected beforehand, so that no connection set-up eats into that.
    const database = open(db.url, { statementTimeoutMs: 2_000 });
    await database.sql`select 1`;
    const { error } = await rejection(database.sql`select pg_sleep(30)`);
    expect(error).toMatchObject({ code: '57014' });
    expect(classifyError(error).exitCode).toBe(ExitCode.databaseUnreachable);
  });

  it('a writer waiting for the write lock behind a stuck writer gives up at its lock timeout: exit 4', async () => {
    const holder = open(db.url);
    const waiter = open(db.url, { statementTimeoutMs: 2_000 });
    // Connected beforehand: the waiter's deadline is for its lock wait, not for a first connection.
    await waiter.sql`select 1`;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = writeTransaction(holder.sql, undefined, async () => {
      locked();
      await released;
    });
    await Promise.race([isLocked, holding]);
    // The waiter's deadline (3 s) is well after its lock timeout (1 s): the server answers first.
    const { error } = await rejection(writeTransaction(waiter.sql, undefined, async () => {}));
    release();
    await holding;
    expect(error).toMatchObject({ code: '55P03' });
    expect(classifyError(error)).toMatchObject({
      exitCode: ExitCode.databaseUnreachable,
      message: expect.stringMatching(/^Database stopped answering: .*lock timeout/),
    });
  });
});

describe('a write transaction behind a frozen connection', () => {
  it('is abandoned with a DatabaseDeadlineError at its deadline, which exits 4', async () => {
    const { proxy, url } = await viaProxy();
    const database = open(url, { statementTimeoutMs: 1_000 });
    await database.sql`select 1`;
    proxy.freeze();
    const { error, elapsedMs } = await rejection(writeTransaction(database.sql, undefined, async (tx) => tx`select 1`));
    expect(error).toBeInstanceOf(DatabaseDeadlineError);
    expect(error).toMatchObject({ operation: 'write transaction', deadlineMs: 1_500 });
    // A generous bound: without the deadline it would never settle.
    expect(elapsedMs).toBeLessThan(15_000);
    expect(classifyError(new Error('sync failed', { cause: error }))).toEqual({
      exitCode: ExitCode.databaseUnreachable,
      message: 'Database stopped answering: sync failed: no answer from the database within 1500 ms (write transaction); abandoned',
    });
  });

  it('rolls back, not commits, when the connection answers again after the deadline', async () => {
    const { proxy, url } = await viaProxy();
    const database = open(url);
    await database.sql`select 1`;
    let frozenAfterInsert = false;
    const { error } = await rejection(
      writeTransaction(
        database.sql,
        undefined,
        async (tx) => {
          await tx`insert into public.deadline_probe values (1)`;
          proxy.freeze();
          frozenAfterInsert = true;
          await tx`select 1`;
        },
        // Room for the lock and the insert on a busy machine; below the server's 5 s
        // idle-in-transaction timeout, so that the late transaction is still open when it thaws.
        { deadlineMs: 2_000 },
      ),
    );
    expect(error).toBeInstanceOf(DatabaseDeadlineError);
    // The deadline cut the transaction after its insert, not before: there is a write to roll back.
    expect(frozenAfterInsert).toBe(true);
    proxy.thaw();
    // The next write waits for the write lock, so for the late transaction to end.
    await writeTransaction(database.sql, undefined, async (tx) => tx`insert into public.deadline_probe values (2)`);
    expect(await db.sql`select id from public.deadline_probe order by id`).toEqual([{ id: 2 }]);
  });

  it('leaves no socket open once its pool is closed, so the process can exit', async () => {
    const { proxy, url } = await viaProxy();
    const database = connect(url, { statementTimeoutMs: 200 });
    await database.sql`select 1`;
    proxy.freeze();
    await rejection(writeTransaction(database.sql, undefined, async (tx) => tx`select 1`));
    const toProxy = () =>
      (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().filter((h) => (h as Socket).remotePort === proxy.port);
    expect(toProxy().length).toBeGreaterThan(0);
    await database.close();
    // A destroyed socket leaves the list of handles once it has closed, a moment later.
    await vi.waitFor(() => expect(toProxy()).toEqual([]), { timeout: 2_000 });
  });
});

describe('any statement behind a frozen connection', () => {
  it('fails at the answer deadline, and the pool connects afresh once the database answers', async () => {
    const { proxy, url } = await viaProxy();
    // The fresh connection after the thaw must be set up within the answer deadline: 2.5 s leaves
    // room on a busy machine.
    const database = open(url, { statementTimeoutMs: 1_000 });
    await database.sql`select 1`;
    proxy.freeze();
    const { error } = await rejection(database.sql`select 1`);
    // 2500 ms: the transaction deadline (1500 ms) plus a margin.
    expect(error).toMatchObject({ name: 'DatabaseDeadlineError', operation: 'statement', deadlineMs: 2_500 });
    expect(classifyError(error)).toEqual({
      exitCode: ExitCode.databaseUnreachable,
      message: 'Database stopped answering: no answer from the database within 2500 ms (statement); abandoned',
    });
    proxy.thaw();
    expect(await database.sql`select 2 as x`).toEqual([{ x: 2 }]);
    expect(proxy.accepted).toBe(2);
  });

  it('leaves alone a connection that owes nothing, idle or idle in a transaction, past that deadline', async () => {
    const { proxy, url } = await viaProxy();
    const database = open(url, { statementTimeoutMs: 1_000, max: 1 });
    const answerDeadlineMs = database.settings.answerDeadlineMs;
    await database.sql`select 1`;
    await new Promise((r) => setTimeout(r, answerDeadlineMs + 500));
    await database.sql.begin(async (tx) => {
      await tx`select 1`;
      await new Promise((r) => setTimeout(r, answerDeadlineMs + 500));
      await tx`select pg_sleep(0.5)`;
    });
    expect(proxy.accepted).toBe(1);
  });
});

describe('opening and closing a run behind a frozen connection', () => {
  const client = createPredictionClient({ baseUrl: 'http://127.0.0.1:9/prediction/v1', apiKey: 'unused-key' });
  afterAll(() => client.close());
  const job = (database: Database, work: () => Promise<void>) =>
    runJob(database.sql, client, 'deadline-job', { providers: [], categories: [] }, work);

  it('gives up opening the run', async () => {
    const { proxy, url } = await viaProxy();
    const database = open(url, { statementTimeoutMs: 300 });
    await database.sql`select 1`;
    proxy.freeze();
    const { error } = await rejection(job(database, async () => {}));
    // A run opens by reading the database's clock (checkedClock), its first statement.
    expect(error).toMatchObject({ name: 'DatabaseDeadlineError', operation: 'reading the database clock', deadlineMs: 600 });
  });

  it('gives up closing the run, after a job that succeeded or failed', async () => {
    const { proxy, url } = await viaProxy();
    // The run must open (a statement deadline of 2 s) before the freeze stops its closing.
    const database = open(url, { statementTimeoutMs: 1_000 });
    await database.sql`select 1`;
    const succeeded = await rejection(job(database, async () => proxy.freeze()));
    expect(succeeded.error).toMatchObject({ name: 'DatabaseDeadlineError', operation: 'closing the run' });
    proxy.thaw();
    // Answering again, over whichever connection the pool now has: the next run opens in time.
    await database.sql`select 1`;

    // A failed job keeps its own error; closing its run is still bounded.
    const failed = await rejection(
      job(database, async () => {
        proxy.freeze();
        throw new Error('the crawl failed');
      }),
    );
    expect(failed.error.message).toBe('the crawl failed');
    expect(failed.elapsedMs).toBeLessThan(15_000);
  });
});
