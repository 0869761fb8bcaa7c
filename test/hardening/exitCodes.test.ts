import type { AddressInfo } from 'node:net';
import { connect as tcpConnect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ApiKeyInvalidError, ApiNetworkError, ApiServerError, createPredictionClient } from '../../src/api/client/index.js';
import { classifyError } from '../../src/cli/classifyError.js';
import { ExitCode } from '../../src/cli/exitCodes.js';
import { type RecordingServer, startRecordingServer } from '../api/client/helpers/recordingServer.js';
import { wireMarket } from '../api/client/helpers/wire.js';
import { runCli } from '../helpers/runCli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

/** What a promise rejects with. */
async function rejection(promise: PromiseLike<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a rejection');
}

/**
 * An error as postgres.js hands it to a query (node_modules/postgres/src/connection.js,
 * queryError): whatever the cause, it gets non-enumerable `query` and `parameters`.
 */
function asQueryError<E extends Error>(error: E, query = 'insert into prediction.markets ...'): E {
  Object.defineProperties(error, { query: { value: query, enumerable: false }, parameters: { value: [], enumerable: false } });
  return error;
}

/** A server error as postgres.js builds it (src/errors.js, Errors.postgres). */
function serverError(code: string, message: string, severity = 'FATAL'): Error {
  return asQueryError(
    new postgres.PostgresError({ severity, severity_local: severity, code, message, file: 'postgres.c', routine: 'x' } as never),
  );
}

/** A postgres.js connection error (src/errors.js, Errors.connection). */
function connectionError(code: string): Error {
  return asQueryError(Object.assign(new Error(`write ${code} 127.0.0.1:5432`), { code, errno: code, address: '127.0.0.1', port: 5432 }));
}

/** A socket error as Node raises it on an established connection (no address: only `query` says it is the database's). */
function socketError(code: string, syscall = 'read'): Error {
  return asQueryError(Object.assign(new Error(`${syscall} ${code}`), { code, errno: -1, syscall }));
}

describe('every way the database stops answering exits 4', () => {
  it.each([
    ['CONNECTION_CLOSED (socket closed with queries pending)', connectionError('CONNECTION_CLOSED')],
    ['CONNECTION_DESTROYED (pool ended with queries pending)', connectionError('CONNECTION_DESTROYED')],
    ['CONNECTION_ENDED (query after the pool ended)', connectionError('CONNECTION_ENDED')],
    ['CONNECT_TIMEOUT', connectionError('CONNECT_TIMEOUT')],
    ['ECONNRESET mid-query', socketError('ECONNRESET')],
    ['ETIMEDOUT mid-query (keep-alive gave up)', socketError('ETIMEDOUT')],
    ['EPIPE mid-write', socketError('EPIPE', 'write')],
    [
      'ECONNREFUSED',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
        code: 'ECONNREFUSED',
        syscall: 'connect',
        address: '127.0.0.1',
        port: 5432,
      }),
    ],
    ['57P01 admin shutdown', serverError('57P01', 'terminating connection due to administrator command')],
    ['57P02 crash shutdown', serverError('57P02', 'terminating connection because of crash of another server process')],
    ['57P03 cannot connect now', serverError('57P03', 'the database system is starting up')],
    ['57P05 idle session timeout', serverError('57P05', 'terminating connection due to idle-session timeout')],
    ['08006 connection failure', serverError('08006', 'connection failure')],
    ['08P01 protocol violation', serverError('08P01', 'invalid frontend message type')],
    ['57014 statement timeout', serverError('57014', 'canceling statement due to statement timeout', 'ERROR')],
    ['55P03 lock timeout', serverError('55P03', 'canceling statement due to lock timeout', 'ERROR')],
    ['25P03 idle-in-transaction timeout', serverError('25P03', 'terminating connection due to idle-in-transaction timeout')],
    ['53300 too many connections', serverError('53300', 'sorry, too many clients already')],
    ['53100 disk full', serverError('53100', 'could not extend file: No space left on device', 'ERROR')],
    ['58030 I/O error', serverError('58030', 'could not read block', 'ERROR')],
    ['28P01 wrong password', serverError('28P01', 'password authentication failed for user "ingest"')],
    ['3D000 no such database', serverError('3D000', 'database "x" does not exist')],
  ])('%s', (_name, error) => {
    expect(classifyError(error).exitCode).toBe(ExitCode.databaseUnreachable);
    // Wrapped by a caller, it still is.
    expect(classifyError(new Error('Database migration failed', { cause: error })).exitCode).toBe(ExitCode.databaseUnreachable);
  });

  it('says which: unreachable while connecting, stopped answering mid-query, with the SQLSTATE', () => {
    expect(classifyError(socketError('ECONNRESET', 'connect')).message).toMatch(/^Database unreachable: /);
    expect(classifyError(socketError('ECONNRESET')).message).toBe('Database stopped answering: read ECONNRESET');
    expect(classifyError(serverError('57014', 'canceling statement due to statement timeout', 'ERROR')).message).toBe(
      'Database stopped answering: canceling statement due to statement timeout (SQLSTATE 57014)',
    );
  });

  it.each([
    ['a unique violation (a bug, not an outage)', serverError('23505', 'duplicate key value violates unique constraint', 'ERROR')],
    ['an undefined table', serverError('42P01', 'relation "x" does not exist', 'ERROR')],
    ['a socket error that is not the database', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' })],
  ])('keeps %s at exit 1', (_name, error) => {
    expect(classifyError(error).exitCode).toBe(ExitCode.failure);
  });

  it('lets an error that names its exit code anywhere in the chain keep it', () => {
    const paging = Object.assign(new Error('GET /events: pages past pagination.total'), { exitCode: ExitCode.upstreamUnavailable });
    expect(classifyError(new Error('sync failed', { cause: paging }))).toEqual({
      exitCode: ExitCode.upstreamUnavailable,
      message: 'sync failed: GET /events: pages past pagination.total',
    });
  });

  it('keeps an API network error at exit 5 even when its cause looks like a socket error', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED', address: '10.0.0.1', port: 443 });
    expect(classifyError(new ApiNetworkError('Network error', { cause })).exitCode).toBe(ExitCode.upstreamUnavailable);
  });
});

describe('real database failures as postgres.js raises them exit 4', () => {
  let db: TestDatabase;
  const pools: postgres.Sql[] = [];
  const pool = (url = db.url) => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    pools.push(sql);
    return sql;
  };
  beforeAll(async () => {
    db = await createTestDatabase({ migrated: false });
    await db.sql`create table locked (id int)`;
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end({ timeout: 1 }).catch(() => {})));
    await db.close();
  });

  it('CONNECTION_ENDED: a query after the pool ended', async () => {
    const sql = pool();
    await sql`select 1`;
    await sql.end();
    const error = await rejection(sql`select 1`);
    expect(error.code).toBe('CONNECTION_ENDED');
    expect(classifyError(error).exitCode).toBe(ExitCode.databaseUnreachable);
  });

  it('CONNECTION_DESTROYED: the pool ended while a write ran', async () => {
    const sql = pool();
    const running = rejection(sql`select pg_sleep(5)`);
    await sleep(200);
    await sql.end({ timeout: 0 });
    const error = await running;
    expect(error.code).toBe('CONNECTION_DESTROYED');
    expect(classifyError(error).exitCode).toBe(ExitCode.databaseUnreachable);
  });

  it('57P01 or CONNECTION_CLOSED: the server terminated the session during a query', async () => {
    const sql = pool();
    const [row] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const pid = row!.pid;
    const running = rejection(sql`select pg_sleep(5)`);
    await sleep(200);
    await db.sql`select pg_terminate_backend(${pid})`;
    const error = await running;
    // postgres.js reports the server's FATAL 57P01 or, when the socket closes first, CONNECTION_CLOSED.
    expect(['57P01', 'CONNECTION_CLOSED']).toContain(error.code);
    expect(classifyError(error).exitCode).toBe(ExitCode.databaseUnreachable);
  });

  it('57014: statement timeout', async () => {
    const sql = pool();
    const error = await rejection(
      sql.begin(async (tx) => {
        await tx`set local statement_timeout = 100`;
        await tx`select pg_sleep(2)`;
      }),
    );
    expect(error.code).toBe('57014');
    expect(classifyError(error).exitCode).toBe(ExitCode.databaseUnreachable);
  });

  it('55P03: lock timeout behind another session', async () => {
    const holder = pool();
    const waiter = pool();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = holder.begin(async (tx) => {
      await tx`lock table locked in access exclusive mode`;
      locked();
      await released;
    });
    await isLocked;
    const error = await rejection(
      waiter.begin(async (tx) => {
        await tx`set local lock_timeout = 100`;
        await tx`insert into locked values (1)`;
      }),
    );
    release();
    await holding;
    expect(error.code).toBe('55P03');
    expect(classifyError(error).exitCode).toBe(ExitCode.databaseUnreachable);
  });

  it('ECONNRESET or CONNECTION_CLOSED: the connection was cut during a write', async () => {
    const target = new URL(db.url);
    const sockets = new Set<Socket>();
    const proxy: Server = createServer((client) => {
      const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
      sockets.add(client);
      for (const s of [client, upstream]) s.on('error', () => {});
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const url = new URL(db.url);
      url.hostname = '127.0.0.1';
      url.port = String((proxy.address() as AddressInfo).port);
      const sql = pool(url.href);
      await sql`select 1`;
      const running = rejection(sql`select pg_sleep(5)`);
      await sleep(200);
      for (const s of sockets) s.resetAndDestroy();
      const error = await running;
      expect(['ECONNRESET', 'CONNECTION_CLOSED']).toContain(error.code);
      expect(classifyError(error).exitCode).toBe(ExitCode.databaseUnreachable);
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('a unique violation stays exit 1', async () => {
    const sql = pool();
    await sql`create table uniq (id int primary key)`;
    await sql`insert into uniq values (1)`;
    const error = await rejection(sql`insert into uniq values (1)`);
    expect(error.code).toBe('23505');
    expect(classifyError(error).exitCode).toBe(ExitCode.failure);
  });
});

describe('a key that cannot be sent as a header', () => {
  let server: RecordingServer;
  beforeAll(async () => {
    server = await startRecordingServer(() => ({ json: wireMarket('M-1') }));
  });
  afterAll(() => server.close());

  it('is refused when the client is built, sends nothing, and exits 2', () => {
    for (const key of ['sk-live-abc\r\nX-Injected: 1', 'sk-live-abc\u0000', 'sk-live-abcé']) {
      let error: unknown;
      try {
        createPredictionClient({ baseUrl: server.baseUrl, apiKey: key });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ApiKeyInvalidError);
      const { exitCode, message } = classifyError(error);
      expect(exitCode).toBe(ExitCode.usage);
      expect(message).toMatch(/^PREDICTION_API_KEY cannot be sent as an HTTP header: it contains a/);
      expect(message).not.toContain('sk-live');
    }
    expect(server.arrivals).toHaveLength(0);
  });

  it('from the environment: exit 2 at start-up, not a network error retried into exit 5', async () => {
    const result = await runCli(['market', 'M-1'], { PREDICTION_API_URL: server.baseUrl, PREDICTION_API_KEY: 'sk-live-abc\r\ndef' });
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr.trim()).toBe(
      'prediction-ingest: Invalid configuration: PREDICTION_API_KEY cannot be sent as an HTTP header: it contains a line break at character 12 (the value is not shown)',
    );
    expect(server.arrivals).toHaveLength(0);
  });
});

describe('a "%" in the database password', () => {
  it('exits 2 naming the variable and saying to percent-encode, never "URI malformed" nor the URL', async () => {
    const result = await runCli(['migrate'], { DATABASE_URL: 'postgres://postgres:50%off-pw@127.0.0.1:1/prediction' });
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toContain(
      'DATABASE_URL has a "%" in its password that does not start a percent-encoded character: percent-encode it',
    );
    expect(result.stderr).not.toMatch(/URI malformed|off-pw|127\.0\.0\.1/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('exit messages from upstream text', () => {
  it('carry no terminal escape, control character or line break', () => {
    const detail = 'boom\x1b]0;owned\x07\r\x1b[2Ksync succeeded: 0 errors\u009b31m\u0000';
    const { exitCode, message } = classifyError(new ApiServerError('Server error 503 (attempt 4, 4 allowed)', 503, detail));
    expect(exitCode).toBe(ExitCode.upstreamUnavailable);
    expect(message).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(message).toBe(
      'The API stayed unavailable after retries: Server error 503 (attempt 4, 4 allowed): boom sync succeeded: 0 errors\\u0000',
    );
  });
});
