import { is } from 'drizzle-orm';
import { pgSchema, PgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { describe, expect, expectTypeOf, it } from 'vitest';

import * as schema from '../../src/schema/index.js';
import { changeOnlyUpsert, type UpsertColumn } from '../../src/sql/core/changeOnlyUpsert.js';
import { type RowOf, selection, sqlNames, uniqueConstraintName } from '../../src/sql/core/sqlNames.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));

describe('sqlNames: the SQL names of the drizzle schema', () => {
  it('covers every table of the prediction schema', async () => {
    const rows = await db.sql<{ name: string }[]>`
      select table_name as name from information_schema.tables
      where table_schema = ${schema.predictionSchema.schemaName} and table_type = 'BASE TABLE' order by 1`;
    expect(tables.map((t) => sqlNames(t).name).sort()).toEqual(rows.map((r) => r.name));
  });

  it.each(tables.map((t) => [sqlNames(t).table, t] as const))("%s: its columns are the database table's", async (name, table) => {
    const names = sqlNames(table);
    const [schemaName, tableName] = name.split('.');
    const rows = await db.sql<{ column_name: string }[]>`
      select column_name from information_schema.columns where table_schema = ${schemaName!} and table_name = ${tableName!}`;
    expect(Object.values(names.col).sort()).toEqual(rows.map((r) => r.column_name).sort());
    // Interpolated as an identifier (postgres.js quotes each dot-separated part) and as statement text.
    const [viaIdentifier] = await db.sql<{ n: number }[]>`select count(*)::int as n from ${db.sql(names.table)}`;
    const [viaText] = await db.sql.unsafe<{ n: number }[]>(`select count(*)::int as n from ${names.quotedTable}`);
    expect(viaIdentifier).toEqual(viaText);
  });

  it('names the unique constraint over given columns, as the database has it', async () => {
    const name = uniqueConstraintName(schema.rejectedRecords, ['payloadHash', 'endpoint', 'entityId']);
    const rows = await db.sql<{ conname: string }[]>`
      select conname from pg_constraint where conrelid = ${sqlNames(schema.rejectedRecords).table}::regclass and contype = 'u'`;
    expect(rows.map((r) => r.conname)).toEqual([name]);
    expect(() => uniqueConstraintName(schema.rejectedRecords, ['endpoint'])).toThrow(/no unique constraint over \(endpoint\)/);
  });

  it('selects columns under their TS keys, typed by the schema', async () => {
    const at = new Date('2026-01-01T00:00:00Z');
    await db.sql`insert into prediction.upstream_sources (api_url, first_used_at, last_used_at) values ('http://a', ${at}, ${at})`;
    const source = selection(schema.upstreamSources, ['apiUrl', 'lastUsedAt']);
    const rows = await db.sql<RowOf<typeof source>[]>`select ${db.sql.unsafe(source.text)} from prediction.upstream_sources`;
    expect(rows.map((r) => ({ ...r }))).toEqual([{ apiUrl: 'http://a', lastUsedAt: at }]);
    expectTypeOf<RowOf<typeof source>>().toEqualTypeOf<{ apiUrl: string; lastUsedAt: Date }>();
    // int8 columns arrive from postgres.js as strings, whatever drizzle maps them to.
    expectTypeOf<RowOf<ReturnType<typeof selection<typeof schema.ingestRuns, 'runId' | 'finishedAt'>>>>().toEqualTypeOf<{
      runId: string;
      finishedAt: Date | null;
    }>();
  });

  it('checks column keys at compile time', () => {
    // Type checks only (`tsc --noEmit` fails if a key below stops being an error); never run.
    const unused = () => {
      const { col } = sqlNames(schema.markets);
      // @ts-expect-error: markets has no column keyed noSuchColumn.
      void col.noSuchColumn;
      // @ts-expect-error: the SQL name is not the key.
      void col.detail_fetched_at;
      // @ts-expect-error: nor in a selection.
      selection(schema.markets, ['marketId', 'noSuchColumn']);
      // @ts-expect-error: nor in an upsert's column list.
      const column: UpsertColumn<typeof schema.markets, unknown> = { column: 'noSuchColumn', bindAs: 'text', value: () => null };
      // @ts-expect-error: changeOnlyUpsert maintains last_seen_at itself.
      const bookkeeping: UpsertColumn<typeof schema.markets, unknown> = { column: 'lastSeenAt', bindAs: 'text', value: () => null };
      // @ts-expect-error: job_ticks lacks the columns a change-only upsert maintains.
      void changeOnlyUpsert(db.sql, schema.jobTicks, column, [], [], new Date());
      return [column, bookkeeping];
    };
    expect(typeof unused).toBe('function');
  });
});

// A table whose SQL names are nothing like the schema's: names that must be quoted, and TS keys
// that differ from them. An upsert into it works only if every name comes from its declaration.
const probeSchema = pgSchema('Name Probe');
const tz = { withTimezone: true, mode: 'date' } as const;
const probe = probeSchema.table('Upsert "Probe"', {
  probeId: text('Probe Id').primaryKey(),
  label: text('label.text'),
  firstSeenAt: timestamp('First Seen', tz).notNull(),
  lastSeenAt: timestamp('last seen', tz).notNull(),
  changedAt: timestamp('Changed', tz).notNull(),
  contentHash: text('Hash'),
});

describe('changeOnlyUpsert takes every name from the table it is given', () => {
  it('inserts, updates and recognises unchanged rows of a table with unusual names', async () => {
    await db.sql.unsafe(`
      create schema "Name Probe";
      create table "Name Probe"."Upsert ""Probe""" ("Probe Id" text primary key, "label.text" text,
        "First Seen" timestamptz not null, "last seen" timestamptz not null, "Changed" timestamptz not null, "Hash" text)`);
    type Row = { id: string; label: string | null };
    const key: UpsertColumn<typeof probe, Row> = { column: 'probeId', bindAs: 'text', value: (r) => r.id };
    const columns: UpsertColumn<typeof probe, Row>[] = [{ column: 'label', bindAs: 'text', value: (r) => r.label }];
    const t0 = new Date('2026-01-01T00:00:00Z');
    const t1 = new Date('2026-01-01T01:00:00Z');
    const upsert = (rows: Row[], at: Date) => changeOnlyUpsert(db.sql, probe, key, columns, rows, at);

    const first = [
      { id: 'a', label: 'x' },
      { id: 'b', label: null },
    ];
    expect(await upsert(first, t0)).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    const second = [
      { id: 'a', label: 'x' },
      { id: 'b', label: 'y' },
    ];
    expect(await upsert(second, t1)).toEqual({ inserted: 0, updated: 1, unchanged: 1 });

    const stored = selection(probe, ['probeId', 'label', 'firstSeenAt', 'lastSeenAt', 'changedAt']);
    const rows = await db.sql<RowOf<typeof stored>[]>`
      select ${db.sql.unsafe(stored.text)} from ${db.sql.unsafe(sqlNames(probe).quotedTable)} order by 1`;
    expect(rows.map((r) => ({ ...r }))).toEqual([
      { probeId: 'a', label: 'x', firstSeenAt: t0, lastSeenAt: t1, changedAt: t0 },
      { probeId: 'b', label: 'y', firstSeenAt: t0, lastSeenAt: t1, changedAt: t1 },
    ]);
  });
});
