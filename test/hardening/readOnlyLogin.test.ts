import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { classifyError } from '../../src/cli/classifyError.js';
import { migrate, MIGRATIONS_FOLDER } from '../../src/db/migrate.js';
import type { Simulator } from '../../src/simulator/index.js';
import { createReaderLogin, type ReaderLogin } from '../helpers/readerLogin.js';
import { runCli } from '../helpers/runCli.js';
import { startTestService } from '../helpers/serviceHarness.js';
import { cliEnv, startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

/**
 * A read-only login (a BI tool's) holding everything it can must not stop ingestion, a service
 * job or a migration. The keys are those of the advisory locks the app used to coordinate with:
 * any login may take advisory locks, so they must no longer matter.
 */
const OLD_ADVISORY_KEYS = [
  ['7340112561028416071'], // migrations
  ['7340112561028416072'], // writes
  ...['sync', 'crawl', 'details', 'orderbooks'].map((job) => ['734011256', job]), // job locks: (namespace, hashtext(job))
] as const;

const INSUFFICIENT_PRIVILEGE = '42501';

let sim: Simulator;
beforeAll(async () => {
  ({ sim } = await startHarness({ seed: 17, markets: 60, faults: { latencyMs: 2 } }));
});
afterAll(() => sim.stop());

interface Hold {
  pid: number;
  /** Statements the login tried and was refused, with their SQLSTATE. */
  refused: Map<string, string | undefined>;
  /** Relations it holds ACCESS SHARE on. */
  shared: string[];
  /** Whether its session still holds its advisory locks (it was not ended). */
  stillHolding(): Promise<boolean>;
  release(): Promise<void>;
}

/**
 * Connects as `reader` and takes every lock it can: the old advisory keys in session and
 * transaction form, ACCESS SHARE on every relation it can read, inside a transaction left open;
 * and tries every stronger lock on every table of prediction (and the app's coordination tables),
 * which must be refused.
 */
async function holdEverything(db: TestDatabase, reader: ReaderLogin): Promise<Hold> {
  const sql = postgres(reader.urlFor(db.url), { max: 1, onnotice: () => {}, connection: { application_name: 'bi-tool (test)' } });
  const lockKey = (key: readonly string[]) => (key.length === 1 ? `${key[0]}::bigint` : `${key[0]}::int, hashtext('${key[1]}')`);
  for (const key of OLD_ADVISORY_KEYS) await sql.unsafe(`select pg_advisory_lock(${lockKey(key)})`);
  const [{ pid }] = (await sql`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
  const refused = new Map<string, string | undefined>();
  const shared: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let ready!: () => void;
  let failed!: (e: unknown) => void;
  const holding = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)));
  const transaction = sql
    .begin(async (tx) => {
      for (const key of OLD_ADVISORY_KEYS) await tx.unsafe(`select pg_advisory_xact_lock(${lockKey(key)})`);
      const relations = await tx<{ name: string; readable: boolean; kind: string }[]>`
        select format('%I.%I', n.nspname, c.relname) as name, has_table_privilege(c.oid, 'SELECT') as readable, c.relkind::text as kind
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('prediction', 'analytics') and c.relkind in ('r', 'p', 'v', 'm') order by 1`;
      const tries: string[] = [
        'lock table drizzle.migration_lock in access share mode',
        'lock table drizzle.migration_lock in exclusive mode',
      ];
      for (const { name, readable, kind } of relations) {
        if (readable) {
          await tx.unsafe(`lock table ${name} in access share mode`);
          shared.push(name);
        } else {
          tries.push(`lock table ${name} in access share mode`, `select * from ${name}`);
        }
        if (kind !== 'r' && kind !== 'p') continue;
        for (const clause of ['update', 'no key update', 'share', 'key share']) tries.push(`select 1 from ${name} limit 1 for ${clause}`);
        for (const mode of [
          'row share',
          'row exclusive',
          'share update exclusive',
          'share',
          'share row exclusive',
          'exclusive',
          'access exclusive',
        ]) {
          tries.push(`lock table ${name} in ${mode} mode`);
        }
      }
      for (const statement of tries) {
        const code = await tx
          .savepoint((sp) => sp.unsafe(statement))
          .then(
            () => 'granted',
            (error: { code?: string }) => error.code,
          );
        refused.set(statement, code);
      }
      ready();
      await released;
    })
    .catch((error: unknown) => failed(error));
  await holding;
  return {
    pid,
    refused,
    shared,
    stillHolding: async () => {
      const [row] = await db.sql`select count(*)::int as n from pg_locks where pid = ${pid} and locktype = 'advisory' and granted`;
      return row!.n >= OLD_ADVISORY_KEYS.length;
    },
    release: async () => {
      release();
      await transaction;
      await sql.end({ timeout: 1 }).catch(() => {});
    },
  };
}

const syncEnv = (databaseUrl: string) => cliEnv(databaseUrl, sim.url, { LOG_LEVEL: 'warn' });

/** A copy of the migrations with one more, `extraSql`, dated after the last. */
async function migrationsWithOneMore(extraSql: string): Promise<{ folder: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
  const folder = path.join(dir, 'migrations');
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
    entries: { idx: number; when: number; tag: string; version: string; breakpoints: boolean }[];
  };
  const last = journal.entries.at(-1)!;
  const tag = `${String(last.idx + 1).padStart(4, '0')}_test_extra`;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1_000, tag });
  await writeFile(journalPath, JSON.stringify(journal));
  await writeFile(path.join(folder, `${tag}.sql`), extraSql);
  return { folder, remove: () => rm(dir, { recursive: true, force: true }) };
}

describe('a read-only login holding every lock it can', () => {
  it('can take the old advisory keys and ACCESS SHARE, and is refused every stronger lock', async () => {
    const db = await createTestDatabase();
    const reader = await createReaderLogin(db.sql);
    try {
      const hold = await holdEverything(db, reader);
      expect(await hold.stillHolding()).toBe(true);
      expect(hold.shared).toContain('prediction.markets');
      expect(hold.shared).not.toContain('prediction.job_leases');
      expect(hold.refused.size).toBeGreaterThan(100);
      const granted = [...hold.refused].filter(([, code]) => code !== INSUFFICIENT_PRIVILEGE);
      expect(granted).toEqual([]);
      for (const table of ['prediction.job_leases', 'prediction.write_lock']) {
        expect(hold.refused.get(`select 1 from ${table} limit 1 for update`)).toBe(INSUFFICIENT_PRIVILEGE);
        expect(hold.refused.get(`lock table ${table} in access share mode`)).toBe(INSUFFICIENT_PRIVILEGE);
      }
      await hold.release();
    } finally {
      await reader.drop();
      await db.close();
    }
  });

  it('does not stop a sync cycle (the CLI: migrate, lease, fenced writes) nor a scheduled job', async () => {
    const db = await createTestDatabase();
    const reader = await createReaderLogin(db.sql);
    try {
      const hold = await holdEverything(db, reader);
      const result = await runCli(['sync'], syncEnv(db.url), 90_000);
      expect(result.stderr).not.toContain('waiting');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^sync succeeded/m);

      const { service } = await startTestService(sim, db.url, { schedules: { details: '0 0 1 1 *', orderbooks: '0 0 1 1 *' } });
      try {
        await expect
          .poll(async () => (await db.sql`select 1 from prediction.ingest_runs where job = 'crawl' and status = 'succeeded'`).length, {
            timeout: 30_000,
          })
          .toBeGreaterThan(0);
      } finally {
        await service.stop();
      }
      // All along, the reader held its locks: they were simply never in the way.
      expect(await hold.stillHolding()).toBe(true);
      await hold.release();
    } finally {
      await reader.drop();
      await db.close();
    }
  }, 120_000);

  it('does not stop migrate, even with a pending ALTER TABLE of a table it holds: its session is ended', async () => {
    const db = await createTestDatabase();
    const reader = await createReaderLogin(db.sql);
    const migrations = await migrationsWithOneMore('ALTER TABLE "prediction"."markets" ADD COLUMN "test_extra" integer;');
    try {
      const hold = await holdEverything(db, reader);
      expect(hold.shared).toContain('prediction.markets');
      // Nothing pending: a plain start-up migrate is not held up at all.
      expect(await migrate(db.url)).toMatchObject({ applied: 0 });
      expect(await hold.stillHolding()).toBe(true);

      const result = await migrate(db.url, { migrationsFolder: migrations.folder, lockTimeoutMs: 2_000 });
      expect(result.applied).toBe(1);
      const [column] =
        await db.sql`select count(*)::int as n from information_schema.columns where table_name = 'markets' and column_name = 'test_extra'`;
      expect(column!.n).toBe(1);
      await expect.poll(async () => (await db.sql`select 1 from pg_stat_activity where pid = ${hold.pid}`).length).toBe(0);
      await hold.release();
    } finally {
      await migrations.remove();
      await reader.drop();
      await db.close();
    }
  }, 60_000);

  it('when the app may not end the blocking session, migrate fails naming it, as a database error (exit 4)', async () => {
    const db = await createTestDatabase();
    const reader = await createReaderLogin(db.sql);
    // The app's own role without superuser nor pg_signal_backend: it may write, but not end others' sessions.
    const app = `pi_app_${reader.name.slice('pi_reader_'.length)}`;
    const appPassword = `${reader.password}a`;
    await db.sql.unsafe(`create role "${app}" login password '${appPassword}'`);
    const migrations = await migrationsWithOneMore('LOCK TABLE "prediction"."markets" IN ACCESS EXCLUSIVE MODE;');
    try {
      await db.sql.unsafe(`
        grant create on database "${db.name}" to ${app};
        grant all on schema drizzle to ${app};
        grant all on all tables in schema drizzle to ${app};
        grant all on all sequences in schema drizzle to ${app};
        grant usage on schema prediction to ${app};
        grant update on prediction.markets to ${app};`);
      const hold = await holdEverything(db, reader);
      const [before] = await db.sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
      const appUrl = new URL(db.url);
      appUrl.username = app;
      appUrl.password = appPassword;
      const failure = await migrate(appUrl.toString(), { migrationsFolder: migrations.folder, lockTimeoutMs: 500, attempts: 2 }).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect(failure!.message).toContain(`pid ${hold.pid}`);
      expect(failure!.message).toContain(`login "${reader.name}"`);
      expect(failure!.message).toContain('application "bi-tool (test)"');
      expect(failure!.message).toContain('not permitted to terminate');
      expect(failure!.message).toContain('pg_signal_backend');
      const classified = classifyError(failure);
      expect(classified.exitCode).toBe(4);
      // Said as what happened, not as a database that stopped answering.
      expect(classified.message).toMatch(/^Database migration failed: a table lock it needs was not granted/);
      // Nothing was applied, and the reader was left as it was.
      expect(await hold.stillHolding()).toBe(true);
      const [applied] = await db.sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
      expect(applied!.n).toBe(before!.n);
      await hold.release();
    } finally {
      await migrations.remove();
      await reader.drop();
      // The app role's grants live in the database: dropped with it, then the role can go.
      await db.close();
      const admin = postgres(inject('pgAdminUrl'), { max: 1, onnotice: () => {} });
      await admin`drop role if exists ${admin(app)}`.finally(() => admin.end());
    }
  }, 60_000);
});
