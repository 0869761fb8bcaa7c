import postgres from 'postgres';
import { describe, expect, it } from 'vitest';

import { migrate } from '../../src/db/migrate.js';
import { createMigrationLockTable } from '../../src/db/withMigrationLock.js';
import { createTestDatabase } from '../helpers/testDatabase.js';

const EXPECTED_TABLES = [
  'book_fetches',
  'category_counts',
  'closed_feed_backfills',
  'closed_feed_watermarks',
  'crawl_coverage',
  'dropped_partitions',
  'event_state_history',
  'events',
  'export_partitions',
  'export_watermarks',
  'ingest_runs',
  'job_leases',
  'job_ticks',
  'market_state_history',
  'markets',
  'orderbook_snapshots',
  'pricing_snapshots',
  'rejected_records',
  'service_settings',
  'trade_polls',
  'trades',
  'upstream_shapes',
  'upstream_sources',
  'write_lock',
];

async function predictionTables(sql: postgres.Sql): Promise<string[]> {
  const rows = await sql<{ table_name: string }[]>`
    select table_name from information_schema.tables
    where table_schema = 'prediction' and table_type = 'BASE TABLE' order by table_name`;
  return rows.map((r) => r.table_name);
}

/** Everything a migration could change, as text: columns, constraints, indexes. */
async function schemaFingerprint(sql: postgres.Sql): Promise<string> {
  const rows = await sql`
    select string_agg(x, E'\n' order by x) as fp from (
      select format('%s.%s %s %s', table_name, column_name, data_type, is_nullable) as x
        from information_schema.columns where table_schema in ('prediction', 'analytics')
      union all select pg_get_constraintdef(c.oid) || ' ' || conname from pg_constraint c
        join pg_namespace n on n.oid = c.connamespace where n.nspname = 'prediction'
      union all select indexdef from pg_indexes where schemaname = 'prediction'
    ) s`;
  return String(rows[0]?.fp);
}

describe('migrate', () => {
  it('creates every table from zero, and a second run changes nothing', async () => {
    const db = await createTestDatabase({ migrated: false });
    try {
      expect(await predictionTables(db.sql)).toEqual([]);
      const first = await migrate(db.url);
      expect(first.applied).toBeGreaterThan(0);
      expect(first.applied).toBe(first.total);
      expect(await predictionTables(db.sql)).toEqual(EXPECTED_TABLES);
      const fingerprint = await schemaFingerprint(db.sql);

      const second = await migrate(db.url);
      expect(second).toEqual({ applied: 0, total: first.total, tempRestricted: true });
      expect(await schemaFingerprint(db.sql)).toBe(fingerprint);
    } finally {
      await db.close();
    }
  });

  it('serializes concurrent migrations with a table lock', async () => {
    const db = await createTestDatabase({ migrated: false });
    const holder = postgres(db.url, { max: 1, onnotice: () => {} });
    let release!: () => void;
    try {
      // Hold the lock ourselves: a migrate started now must wait without touching the schema.
      await createMigrationLockTable(holder);
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const holding = holder.begin(async (tx) => {
        await tx`lock table drizzle.migration_lock in exclusive mode`;
        locked();
        await held;
      });
      await isLocked;
      const a = migrate(db.url);
      const b = migrate(db.url);
      await expect
        .poll(async () => {
          const rows = await db.sql`
          select count(*)::int as n from pg_stat_activity
          where datname = ${db.name} and wait_event_type = 'Lock' and wait_event = 'relation'
            and application_name = 'prediction-ingest migration lock'`;
          return rows[0]?.n;
        })
        .toBe(2);
      expect(await predictionTables(db.sql)).toEqual([]);

      release();
      await holding;
      const results = await Promise.all([a, b]);
      // One of them applied everything; the other found nothing left to do.
      expect(results.map((r) => r.applied).sort((x, y) => x - y)).toEqual([0, results[0]!.total]);
      expect(await predictionTables(db.sql)).toEqual(EXPECTED_TABLES);
    } finally {
      release?.();
      await holder.end();
      await db.close();
    }
  });

  it('takes TEMPORARY on the database away from PUBLIC at every migrate, since a clone does not inherit it', async () => {
    // A clone of the migrated template: CREATE DATABASE ... TEMPLATE leaves the clone's ACL at its default.
    const db = await createTestDatabase();
    const acl = async () =>
      (await db.sql`select datacl::text[] as acl from pg_database where datname = current_database()`)[0]!.acl as string[] | null;
    try {
      expect(await acl()).toBeNull();
      const result = await migrate(db.url);
      expect(result).toMatchObject({ applied: 0, tempRestricted: true });
      const entries = (await acl())!;
      // PUBLIC ("=...") keeps CONNECT only; the app's role (here the owner) keeps TEMPORARY.
      expect(entries.find((e) => e.startsWith('='))).toMatch(/^=c\//);
      expect(entries).toContainEqual(expect.stringMatching(/^postgres=[^/]*T/));
    } finally {
      await db.close();
    }
  });
});
