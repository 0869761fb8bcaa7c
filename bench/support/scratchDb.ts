/**
 * Scratch databases for the benchmarks: created on the local server, migrated with the app's own
 * migrations, cloned for "same starting state" comparisons, and dropped afterwards.
 */
import postgres from 'postgres';

import { migrate } from '../../src/db/migrate.js';

/** Server the benchmarks create their databases on (trust auth); override with `--db URL`. */
export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ScratchDb {
  name: string;
  url: string;
}

/** Extensions used to measure (WAL per database, exact dead tuples, row locks); absent ones are skipped. */
const MEASURING_EXTENSIONS = ['pg_walinspect', 'pgstattuple', 'pgrowlocks'];

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(serverUrl: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** A fresh, migrated database (an older leftover of the same name is dropped first). */
export async function createScratch(serverUrl: string, name: string): Promise<ScratchDb> {
  await onServer(serverUrl, async (sql) => {
    await sql.unsafe(`drop database if exists ${name} with (force)`);
    await sql.unsafe(`create database ${name}`);
  });
  const db = { name, url: databaseUrl(serverUrl, name) };
  await migrate(db.url);
  await withDb(db, async (sql) => {
    for (const ext of MEASURING_EXTENSIONS) await sql.unsafe(`create extension if not exists ${ext}`).catch(() => {});
  });
  return db;
}

/**
 * An exact copy of `template` (which must have no open connection). file_copy copies the files
 * rather than WAL-logging every page, so cloning does not flood the WAL we measure afterwards.
 */
export async function cloneScratch(serverUrl: string, template: ScratchDb, name: string): Promise<ScratchDb> {
  await onServer(serverUrl, async (sql) => {
    await sql.unsafe(`drop database if exists ${name} with (force)`);
    await sql.unsafe(`create database ${name} template ${template.name} strategy file_copy`);
  });
  return { name, url: databaseUrl(serverUrl, name) };
}

/**
 * Runs `fn` on a file copy of `template` (cloneScratch, named after it with `suffix`), dropped
 * afterwards, so the template stays as it was. Also returns how long the copy took.
 */
export async function onClone<T>(
  serverUrl: string,
  template: ScratchDb,
  suffix: string,
  fn: (clone: ScratchDb) => Promise<T>,
): Promise<{ result: T; cloneSeconds: number }> {
  const started = performance.now();
  const clone = await cloneScratch(serverUrl, template, `${template.name}_${suffix}`);
  const cloneSeconds = (performance.now() - started) / 1000;
  try {
    return { result: await fn(clone), cloneSeconds };
  } finally {
    await dropScratch(serverUrl, clone);
  }
}

export async function dropScratch(serverUrl: string, ...dbs: ScratchDb[]): Promise<void> {
  await onServer(serverUrl, async (sql) => {
    for (const db of dbs) await sql.unsafe(`drop database if exists ${db.name} with (force)`);
  });
}

/** Runs `fn` on a one-connection pool of `db`, closed afterwards (so the database can be cloned). */
export async function withDb<T>(db: ScratchDb, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Runs every cleanup even when one fails; used in `finally` blocks. */
export async function cleanup(...steps: (() => Promise<unknown>)[]): Promise<void> {
  for (const step of steps) await step().catch((e: unknown) => console.error('cleanup failed:', e));
}
