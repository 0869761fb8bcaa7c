import postgres from 'postgres';
import { describe, expect, it } from 'vitest';

import { migrate } from '../../src/db/migrate.js';
import { createReaderLogin } from '../helpers/readerLogin.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { writeKnownDataset } from './knownDataset.js';

const db = await useTestDatabase();

/** Coordination rows of the app (leases, the write lock): a reader gets nothing on them, not even SELECT. */
const INTERNAL = ['prediction.job_leases', 'prediction.write_lock'];

/** Runs `fn` as prediction_reader in a transaction that is always rolled back. */
async function asReader<T>(fn: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
  let result: T | undefined;
  const rollback = new Error('rollback');
  await db.sql
    .begin(async (tx) => {
      await tx`set local role prediction_reader`;
      result = await fn(tx);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  return result as T;
}

const INSUFFICIENT_PRIVILEGE = '42501';

describe('prediction_reader', () => {
  it('is a NOLOGIN role with a statement timeout and an idle-in-transaction timeout', async () => {
    const [role] = await db.sql`
      select r.rolcanlogin, r.rolsuper, r.rolcreaterole, r.rolcreatedb, s.setconfig
      from pg_roles r left join pg_db_role_setting s on s.setrole = r.oid and s.setdatabase = 0
      where r.rolname = 'prediction_reader'`;
    expect(role).toMatchObject({ rolcanlogin: false, rolsuper: false, rolcreaterole: false, rolcreatedb: false });
    expect(role!.setconfig).toContain('statement_timeout=60s');
    expect(role!.setconfig).toContain('idle_in_transaction_session_timeout=60s');
  });

  it('reads every table and view of both schemas and runs the functions', async () => {
    const relations = await db.sql<{ name: string }[]>`
      select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('prediction', 'analytics') and c.relkind in ('r', 'p', 'v', 'm')
        and format('%I.%I', n.nspname, c.relname) <> all(${INTERNAL}::text[]) order by 1`;
    expect(relations.length).toBeGreaterThan(15);
    await asReader(async (tx) => {
      for (const { name } of relations) await tx.unsafe(`select * from ${name} limit 1`);
      await tx`select * from analytics.price_as_of('M1', now())`;
      await tx`select * from analytics.prices_as_of(now())`;
      await tx`select * from analytics.prices_as_of(array['M1'], array[now()])`;
      await tx`select * from analytics.candles('M1', '1 hour', now() - interval '1 day', now())`;
      await tx`select * from analytics.cost_to_buy_yes('M1', 10)`;
      await tx`select * from analytics.coverage_gaps('1 hour')`;
    });
  });

  it.each([
    ['INSERT', `insert into prediction.ingest_runs (job, started_at, status) values ('x', now(), 'running')`],
    ['INSERT (no sequence either)', `select nextval('prediction.ingest_runs_run_id_seq')`],
    ['UPDATE', `update prediction.markets set title = 'x'`],
    ['DELETE', `delete from prediction.pricing_snapshots`],
    ['TRUNCATE', `truncate prediction.orderbook_snapshots`],
    ['CREATE TABLE in prediction', `create table prediction.mine (i int)`],
    ['CREATE VIEW in analytics', `create view analytics.mine as select 1 as one`],
    ['CREATE FUNCTION in analytics', `create function analytics.mine() returns int language sql as 'select 1'`],
    ['CREATE SCHEMA', `create schema mine`],
    ['ALTER a view', `alter view analytics.market_latest rename to mine`],
    ['DROP a function', `drop function analytics.candles(text, interval, timestamptz, timestamptz)`],
  ])('cannot %s', async (_what, statement) => {
    await expect(asReader((tx) => tx.unsafe(statement))).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
  });

  it('holds SELECT and nothing else on every relation, USAGE without CREATE on the schemas', async () => {
    const [row] = await db.sql`
      select
        bool_and(has_table_privilege('prediction_reader', c.oid, 'SELECT')) as select_all,
        bool_or(has_table_privilege('prediction_reader', c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')) as write_any,
        bool_and(has_schema_privilege('prediction_reader', n.oid, 'USAGE')) as usage_all,
        bool_or(has_schema_privilege('prediction_reader', n.oid, 'CREATE')) as create_any
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('prediction', 'analytics') and c.relkind in ('r', 'p', 'v', 'm')
        and format('%I.%I', n.nspname, c.relname) <> all(${INTERNAL}::text[])`;
    expect(row).toEqual({ select_all: true, write_any: false, usage_all: true, create_any: false });
    const [fn] = await db.sql`
      select bool_and(has_function_privilege('prediction_reader', p.oid, 'EXECUTE')) as execute_all
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'analytics'`;
    expect(fn!.execute_all).toBe(true);
  });

  it('has no privilege at all on the coordination tables, nor on the schema of the migration lock', async () => {
    const rows = await db.sql<{ name: string; any: boolean }[]>`
      select t as name, has_table_privilege('prediction_reader', t, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
        or has_table_privilege('public', t, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER') as any
      from unnest(${[...INTERNAL, 'drizzle.migration_lock']}::text[]) t`;
    expect(rows).toEqual([...INTERNAL, 'drizzle.migration_lock'].map((name) => ({ name, any: false })));
    const [schema] = await db.sql`select has_schema_privilege('prediction_reader', 'drizzle', 'USAGE') as usage`;
    expect(schema!.usage).toBe(false);
    for (const table of INTERNAL) {
      await expect(asReader((tx) => tx.unsafe(`select * from ${table}`))).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
    }
  });

  it('cannot create temporary objects once migrate has run on the database', async () => {
    const reader = await createReaderLogin(db.sql);
    const tryTemp = async () => {
      // A new session each time: a session that already has its temporary schema does not check again.
      const sql = postgres(reader.urlFor(db.url), { max: 1, onnotice: () => {} });
      try {
        await sql`create temp table scratch (i int)`;
        return 'created';
      } catch (error) {
        return (error as { code?: string }).code;
      } finally {
        await sql.end();
      }
    };
    try {
      // This database is a clone, whose ACL is the default one: PUBLIC may create temporary tables.
      expect(await tryTemp()).toBe('created');
      await migrate(db.url);
      expect(await tryTemp()).toBe(INSUFFICIENT_PRIVILEGE);
      // The app's own role keeps the privilege.
      await db.sql.begin(async (tx) => {
        await tx`create temp table app_scratch (i int) on commit drop`;
      });
    } finally {
      await reader.drop();
    }
  });

  it('gets an error, not a runaway query, from analytics.candles over more than 100,000 buckets', async () => {
    // A market the database holds: one it does not gets no buckets at all.
    await writeKnownDataset(db.sql);
    const candles = (interval: string, from: string, to: string) =>
      asReader(
        (tx) => tx`select count(*)::int as n from analytics.candles('M1', ${interval}::interval, ${from}::timestamptz, ${to}::timestamptz)`,
      );
    // 200 years of 1-minute buckets, as in the report that found it.
    await expect(candles('1 minute', '2000-01-01T00:00:00Z', '2200-01-01T00:00:00Z')).rejects.toMatchObject({
      code: '22023',
      message: expect.stringMatching(/at most 100000 buckets per call, got 105190560 /),
    });
    // 100,000 exactly is allowed; one more is not.
    const [exact] = await candles('1 minute', '2026-01-01T00:00:00Z', '2026-03-11T10:40:00Z');
    expect(exact!.n).toBe(100_000);
    await expect(candles('1 minute', '2026-01-01T00:00:00Z', '2026-03-11T10:40:00.001Z')).rejects.toMatchObject({ code: '22023' });
  });

  it('can read relations created by later migrations (default privileges)', async () => {
    const read = await db.sql
      .begin(async (tx) => {
        await tx`create table prediction.later_table (i int)`;
        await tx`create view analytics.later_view as select 1 as one`;
        await tx`create function analytics.later_function() returns int language sql as 'select 2'`;
        await tx`set local role prediction_reader`;
        const [row] = await tx`select (select count(*) from prediction.later_table)::int as t, (select one from analytics.later_view) as v,
                                      analytics.later_function() as f`;
        throw Object.assign(new Error('rollback'), { row });
      })
      .catch((error: { row?: unknown }) => error.row);
    expect(read).toEqual({ t: 0, v: 1, f: 2 });
  });

  it('re-running the role setup is harmless when the role exists (roles are cluster-wide)', async () => {
    // The migration's own statements, replayed on a database where the role already exists.
    const { readFile } = await import('node:fs/promises');
    const sqlText = await readFile(new URL('../../migrations/0005_comments_and_reader_role.sql', import.meta.url), 'utf8');
    const roleStatements = sqlText
      .split('--> statement-breakpoint')
      .filter((s) => /prediction_reader/.test(s) && !/^\s*COMMENT ON (TABLE|COLUMN)/m.test(s));
    expect(roleStatements.length).toBeGreaterThanOrEqual(6);
    for (const statement of roleStatements) await db.sql.unsafe(statement);
    const [role] = await db.sql`select count(*)::int as n from pg_roles where rolname = 'prediction_reader'`;
    expect(role!.n).toBe(1);
  });
});
