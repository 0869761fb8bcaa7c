import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Sql } from '../../src/db/connect.js';
import { openPool } from '../../src/db/openPool.js';
import { ROLE_SETTINGS } from '../../src/db/sessionSettings.js';
import type { ExportTable } from '../../src/export/ExportTable.js';
import { EXPORT_TABLES, selectTables } from '../../src/export/exportTables.js';
import { type ExportOptions, runExport } from '../../src/export/runExport.js';

const READER = fileURLToPath(new URL('./readExport.mjs', import.meta.url));

export type TextRow = Record<string, string | null>;

/** What the independent reader (readExport.mjs, in a process of its own) finds in `outDir`. */
export async function readExport(
  outDir: string,
  tables: readonly string[],
): Promise<Record<string, { types: Record<string, string>; rows: TextRow[] }>> {
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [READER, outDir, ...tables], { maxBuffer: 512 * 1024 * 1024 }, (error, out, err) =>
      error ? reject(new Error(`readExport failed: ${err}`, { cause: error })) : resolve(out),
    ),
  );
  return JSON.parse(stdout) as Record<string, { types: Record<string, string>; rows: TextRow[] }>;
}

/**
 * Every row of a Postgres relation, each column rendered as text the way the reader renders it:
 * timestamps as UTC ISO with microseconds, arrays as JSON, jsonb as its text, booleans as true/false.
 */
export async function postgresRows(sql: Sql, relation: string, options: { omit?: readonly string[] } = {}): Promise<TextRow[]> {
  const columns = await sql<{ name: string; type: string }[]>`
    select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute
    where attrelid = ${relation}::regclass and attnum > 0 and not attisdropped order by attnum`;
  const list = columns
    .filter((c) => !(options.omit ?? []).includes(c.name))
    .map(({ name, type }) => {
      const c = sql(name);
      if (type === 'timestamp with time zone') return sql`to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ${c}`;
      if (type.endsWith('[]')) return sql`array_to_json(${c})::text as ${c}`;
      return sql`${c}::text as ${c}`;
    });
  const select = list.reduce((acc, part, i) => (i === 0 ? part : sql`${acc}, ${part}`));
  return (await sql`select ${select} from ${sql.unsafe(relation)}`) as unknown as TextRow[];
}

/** Exact decimal text without trailing zeros, so that 0.650000 and 0.650000000000 compare equal (and nothing else does). */
export function canonicalDecimal(text: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) throw new Error(`not a decimal: ${text}`);
  const trimmed = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
  return trimmed === '-0' ? '0' : trimmed;
}

/** Rows keyed and sorted for comparison; values of `decimals` columns made canonical, JSON arrays parsed. */
export function comparable(
  rows: readonly TextRow[],
  options: { key: readonly string[]; decimals: readonly string[]; columns: readonly string[] },
) {
  return rows
    .map((row) => {
      const out: Record<string, unknown> = {};
      for (const column of options.columns) {
        const value = row[column] ?? null;
        out[column] = value !== null && options.decimals.includes(column) ? canonicalDecimal(value) : value;
      }
      return out;
    })
    .sort((a, b) => {
      for (const k of options.key) {
        const x = String(a[k]);
        const y = String(b[k]);
        if (x !== y) return x < y ? -1 : 1;
      }
      return 0;
    });
}

/** Every file under `dir` (relative path -> bytes), the work folder left out. */
export function filesUnder(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), readFileSync(path));
  }
  return files;
}

/** Inode and size of each partition file: a rewritten file (renamed into place) gets a new inode. */
export function fileIdentities(dir: string): Map<string, string> {
  const ids = new Map<string, string>();
  for (const [path] of filesUnder(dir)) {
    if (!path.endsWith('.parquet')) continue;
    const s = statSync(join(dir, path));
    ids.set(path, `${s.ino}:${s.size}`);
  }
  return ids;
}

/**
 * A reader holding `prediction.markets` exclusively until `release()`: an export that reaches it
 * waits there. `done` settles once the reader's transaction has ended.
 */
export async function holdMarkets(sql: Sql): Promise<{ release: () => void; done: Promise<unknown> }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const done = sql.begin(async (tx) => {
    await tx`lock table prediction.markets in access exclusive mode`;
    locked();
    await held;
  });
  await isLocked;
  return { release, done };
}

/** How many sessions of this database wait for a lock. */
export async function lockWaiters(sql: Sql): Promise<number> {
  return (await sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`).length;
}

/**
 * A test file's export: `tables` (all of them by default) of the database `sql()` returns (read at
 * each call, since a file opens its pool in beforeAll) into `outDir`, every day, unless the call's
 * options say otherwise.
 */
export function exporter(sql: () => Sql, tables: readonly ExportTable[] = EXPORT_TABLES) {
  return (outDir: string, options: Partial<ExportOptions> = {}) =>
    runExport(sql(), { outDir, tables, range: { fromDay: null, toDay: null }, ...options });
}

/** Exports the default tables of the database at `url`, every day, into `outDir`, as `export` would. */
export async function exportEverything(url: string, outDir: string, applicationName: string): Promise<void> {
  const pool = openPool(url, ROLE_SETTINGS.export, { max: 2, applicationName });
  try {
    await runExport(pool.sql, { outDir, tables: selectTables(undefined), range: { fromDay: null, toDay: null } });
  } finally {
    await pool.close();
  }
}
