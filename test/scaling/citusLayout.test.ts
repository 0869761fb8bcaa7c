/**
 * Citus cannot be installed here, so this checks the layout in scripts/citus/distribute.sql
 * against the migrated schema by Citus's rules, on plain Postgres:
 *   - every table of `prediction` and `analytics` is classified (distributed, reference, local);
 *   - a distributed table's primary keys, unique constraints, unique indexes and exclusion
 *     constraints include its distribution column as a key column (an INCLUDE column does not
 *     count), the partitioned parent's keys included;
 *   - distributed tables share one distribution column type (one co-location group);
 *   - foreign keys go between co-located distributed tables on the distribution column, or to
 *     reference tables; never from a reference table to anything else, nor between local and
 *     distributed tables;
 *   - a reference table is not partitioned (Citus distributes partitioned tables by hash only);
 *   - identity columns of distributed and reference tables are bigint.
 * Only tables (relkind r and p) count: views are not distributed, and partitions follow their
 * parent. The layout is read from the script itself, never repeated here; the whole script also
 * runs, against stand-ins that record the calls it makes to Citus.
 */
import { readFileSync } from 'node:fs';

import type postgres from 'postgres';
import { describe, expect, it } from 'vitest';

import { useTestDatabase } from '../helpers/testDatabase.js';

const SCRIPT = readFileSync(new URL('../../scripts/citus/distribute.sql', import.meta.url), 'utf8');
const SCHEMAS = ['prediction', 'analytics'];

interface LayoutRow {
  table_name: string;
  placement: 'distributed' | 'reference' | 'local';
  distribution_column: string | null;
  reason: string;
}

/** Runs the script's layout section (its CREATE TEMPORARY TABLE and INSERT) and reads the rows back. */
async function readLayout(sql: postgres.Sql, script: string): Promise<LayoutRow[]> {
  const section = /-- citus-layout:begin\n([\s\S]*?)-- citus-layout:end/.exec(script)?.[1];
  if (!section) throw new Error('scripts/citus/distribute.sql has no citus-layout:begin/end section');
  return sql.begin(async (tx) => {
    await tx.unsafe(section);
    return tx<LayoutRow[]>`select table_name, placement, distribution_column, reason from citus_layout order by position`;
  });
}

const qualified = (nsp: string, rel: string) => `${nsp}.${rel}`;

/** Every breach of Citus's rules by `layout` over the tables of `schemas`, as readable lines; [] when none. */
async function layoutViolations(sql: postgres.Sql, layout: readonly LayoutRow[], schemas: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const byName = new Map(layout.map((r) => [r.table_name, r]));
  const placement = (name: string) => byName.get(name)?.placement;

  const listed = await sql<{ name: string; relkind: string | null; partition: boolean | null }[]>`
    select l.name, c.relkind::text as relkind, c.relispartition as partition
    from unnest(${layout.map((r) => r.table_name)}::text[]) as l(name)
    left join pg_class c on c.oid = to_regclass(l.name)`;
  for (const l of listed) {
    if (l.relkind === null) out.push(`${l.name}: listed but not in the database`);
    else if (l.partition) out.push(`${l.name}: a partition; classify its parent instead`);
    else if (!['r', 'p', 'v'].includes(l.relkind)) out.push(`${l.name}: listed but is neither a table nor a view (relkind ${l.relkind})`);
  }

  const tables = await sql<{ nsp: string; rel: string; relkind: string }[]>`
    select n.nspname as nsp, c.relname as rel, c.relkind::text as relkind
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = any(${schemas as string[]}::text[]) and c.relkind in ('r', 'p') and not c.relispartition
    order by 1, 2`;
  const inScope = tables.map((t) => qualified(t.nsp, t.rel));
  for (const t of tables) {
    const name = qualified(t.nsp, t.rel);
    const p = placement(name);
    if (!p) out.push(`${name}: not classified in scripts/citus/distribute.sql (distributed, reference, or local with a reason)`);
    if (p === 'reference' && t.relkind === 'p') out.push(`${name}: a partitioned table cannot be a reference table`);
  }

  const distributed = layout.filter((r) => r.placement === 'distributed' && inScope.includes(r.table_name));
  const distColumn = new Map(distributed.map((r) => [r.table_name, r.distribution_column!]));
  const columnTypes = await sql<{ name: string; type: string | null }[]>`
    select d.name, format_type(a.atttypid, a.atttypmod) as type
    from unnest(${distributed.map((r) => r.table_name)}::text[], ${distributed.map((r) => r.distribution_column!)}::text[]) as d(name, col)
    left join pg_attribute a on a.attrelid = to_regclass(d.name) and a.attname = d.col and not a.attisdropped`;
  for (const c of columnTypes) if (c.type === null) out.push(`${c.name}: has no distribution column ${distColumn.get(c.name)}`);
  const types = [...new Set(columnTypes.flatMap((c) => (c.type ? [c.type] : [])))];
  if (types.length > 1) out.push(`distribution columns of different types (${types.join(', ')}) cannot be co-located`);

  // Primary keys, unique and exclusion constraints all own an index: pg_index sees them and the
  // plain unique indexes alike. Only key columns count (the first indnkeyatts), not INCLUDE ones.
  const keys = await sql<{ name: string; index: string; columns: string[] }[]>`
    select t.name, i.relname as index,
           array(select a.attname from unnest(x.indkey::int2[]) with ordinality as k(attnum, ord)
                 join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum
                 where k.ord <= x.indnkeyatts order by k.ord)::text[] as columns
    from unnest(${[...distColumn.keys()]}::text[]) as t(name)
    join pg_index x on x.indrelid = to_regclass(t.name)
    join pg_class i on i.oid = x.indexrelid
    where x.indisunique or x.indisexclusion
    order by t.name, i.relname`;
  for (const k of keys) {
    const column = distColumn.get(k.name)!;
    if (!k.columns.includes(column))
      out.push(`${k.name}: unique key ${k.index} (${k.columns.join(', ')}) lacks the distribution column ${column}`);
  }

  const foreignKeys = await sql<{ name: string; from: string; to: string; from_columns: string[]; to_columns: string[] }[]>`
    select con.conname as name, format('%s.%s', sn.nspname, s.relname) as from, format('%s.%s', dn.nspname, d.relname) as to,
           array(select a.attname from unnest(con.conkey) with ordinality as k(attnum, ord)
                 join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum order by k.ord)::text[] as from_columns,
           array(select a.attname from unnest(con.confkey) with ordinality as k(attnum, ord)
                 join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum order by k.ord)::text[] as to_columns
    from pg_constraint con
    join pg_class s on s.oid = con.conrelid join pg_namespace sn on sn.oid = s.relnamespace
    join pg_class d on d.oid = con.confrelid join pg_namespace dn on dn.oid = d.relnamespace
    -- conparentid: the copies Postgres makes for partitions; the parent's constraint is the one to judge
    where con.contype = 'f' and con.conparentid = 0 and sn.nspname = any(${schemas as string[]}::text[]) and not s.relispartition
    order by 2, 1`;
  for (const fk of foreignKeys) {
    const [from, to] = [placement(fk.from), placement(fk.to)];
    const what = `${fk.from}: foreign key ${fk.name} to ${fk.to}`;
    if (!from) continue; // reported above as unclassified
    if (!to) out.push(`${what}, which is not classified`);
    else if (to === 'reference') continue;
    else if (from === 'distributed' && to === 'distributed') {
      const at = fk.from_columns.indexOf(distColumn.get(fk.from)!);
      if (at < 0 || fk.to_columns[at] !== distColumn.get(fk.to)) out.push(`${what} does not join the distribution columns`);
    } else if (from !== 'local' || to !== 'local') out.push(`${what}: a ${from} table may not reference a ${to} table`);
  }

  const identities = await sql<{ name: string; column: string; type: string }[]>`
    select t.name, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
    from unnest(${layout.filter((r) => r.placement !== 'local').map((r) => r.table_name)}::text[]) as t(name)
    join pg_attribute a on a.attrelid = to_regclass(t.name) and a.attidentity <> '' and not a.attisdropped
    order by 1, 2`;
  for (const i of identities) if (i.type !== 'bigint') out.push(`${i.name}: identity column ${i.column} is ${i.type}, Citus needs bigint`);
  return out;
}

const db = await useTestDatabase();

describe('the Citus layout of scripts/citus/distribute.sql', () => {
  it('classifies every table of the migrated schema and keeps to Citus rules', async () => {
    const layout = await readLayout(db.sql, SCRIPT);
    expect(await layoutViolations(db.sql, layout, SCHEMAS)).toEqual([]);
  });

  it('is not vacuous: market data distributed by market_id, events reference, bookkeeping local with reasons', async () => {
    const layout = await readLayout(db.sql, SCRIPT);
    const names = (p: LayoutRow['placement']) => layout.filter((r) => r.placement === p).map((r) => r.table_name);
    expect(names('distributed')).toContain('prediction.pricing_snapshots');
    expect(new Set(layout.flatMap((r) => (r.distribution_column ? [r.distribution_column] : [])))).toEqual(new Set(['market_id']));
    expect(names('reference')).toContain('prediction.events');
    expect(names('local')).toContain('prediction.write_lock');
    for (const r of layout) expect(r.reason.length, r.table_name).toBeGreaterThan(10);
  });

  it('runs whole against stand-ins of the Citus functions: reference tables first, then markets anchoring the group', async () => {
    await db.sql.unsafe(`
      create table public.citus_calls (n serial, fn text, table_name text, distribution_column text, colocate_with text);
      create function public.create_reference_table(table_name regclass) returns void language sql
        as $$ insert into public.citus_calls (fn, table_name) values ('reference', table_name::text) $$;
      create function public.create_distributed_table(table_name regclass, distribution_column text, colocate_with text default 'default')
        returns void language sql
        as $$ insert into public.citus_calls (fn, table_name, distribution_column, colocate_with)
              values ('distributed', table_name::text, distribution_column, colocate_with) $$;
    `);
    // psql's meta-commands (\set) are not SQL.
    const session = await db.sql.reserve(); // the script opens and commits its own transaction
    await session.unsafe(SCRIPT.replace(/^\\.*$/gm, '')).finally(() => session.release());
    const calls = await db.sql<{ fn: string; table_name: string; distribution_column: string | null; colocate_with: string | null }[]>`
      select fn, table_name, distribution_column, colocate_with from public.citus_calls order by n`;
    const layout = await readLayout(db.sql, SCRIPT);
    const reference = layout.filter((r) => r.placement === 'reference');
    const distributed = layout.filter((r) => r.placement === 'distributed');
    expect(calls).toEqual([
      ...reference.map((r) => ({ fn: 'reference', table_name: r.table_name, distribution_column: null, colocate_with: null })),
      ...distributed.map((r, i) => ({
        fn: 'distributed',
        table_name: r.table_name,
        distribution_column: r.distribution_column,
        colocate_with: i === 0 ? 'none' : distributed[0]!.table_name,
      })),
    ]);
    expect(distributed[0]?.table_name).toBe('prediction.markets');
  });

  it('catches each kind of breach (probe tables in a schema of their own)', async () => {
    await db.sql.unsafe(`
      create schema citus_probe;
      create table citus_probe.events (event_id text primary key);
      create table citus_probe.markets (market_id text primary key, event_id text references citus_probe.events);
      create table citus_probe.prices (market_id text not null, observed_at timestamptz not null, seq bigint generated always as identity,
        primary key (market_id, observed_at), unique (observed_at));
      create unique index prices_seq_idx on citus_probe.prices (seq) include (market_id);
      create table citus_probe.by_month (market_id text not null references citus_probe.markets, observed_at timestamptz not null,
        primary key (market_id, observed_at)) partition by range (observed_at);
      create table citus_probe.by_month_2026_01 partition of citus_probe.by_month for values from ('2026-01-01') to ('2026-02-01');
      create table citus_probe.by_month_bad (market_id text not null, observed_at timestamptz not null, primary key (observed_at))
        partition by range (observed_at);
      create table citus_probe.other_market (market_id text not null, other_id text references citus_probe.markets (market_id));
      create table citus_probe.runs (run_id bigint primary key);
      create table citus_probe.marks (market_id text not null, run_id bigint references citus_probe.runs, n int generated always as identity);
      create table citus_probe.ref_to_market (id text primary key, market_id text references citus_probe.markets);
      create table citus_probe.ref_by_month (id text, at date) partition by range (at);
      create table citus_probe.int_keyed (market_id int not null);
      create table citus_probe.forgotten (x int);
      create view citus_probe.levels as select market_id from citus_probe.markets;
    `);
    const row = (table_name: string, placement: LayoutRow['placement'], distribution_column: string | null = null): LayoutRow => ({
      table_name: `citus_probe.${table_name}`,
      placement,
      distribution_column,
      reason: 'probe',
    });
    const layout = [
      row('events', 'reference'),
      row('markets', 'distributed', 'market_id'),
      row('prices', 'distributed', 'market_id'),
      row('by_month', 'distributed', 'market_id'),
      row('by_month_bad', 'distributed', 'market_id'),
      row('other_market', 'distributed', 'market_id'),
      row('runs', 'local'),
      row('marks', 'distributed', 'market_id'),
      row('ref_to_market', 'reference'),
      row('ref_by_month', 'reference'),
      row('int_keyed', 'distributed', 'market_id'),
      row('levels', 'distributed', 'market_id'),
      row('by_month_2026_01', 'distributed', 'market_id'),
      row('gone', 'local'),
    ];
    expect(await layoutViolations(db.sql, layout, ['citus_probe'])).toEqual([
      'citus_probe.by_month_2026_01: a partition; classify its parent instead',
      'citus_probe.gone: listed but not in the database',
      'citus_probe.forgotten: not classified in scripts/citus/distribute.sql (distributed, reference, or local with a reason)',
      'citus_probe.ref_by_month: a partitioned table cannot be a reference table',
      'distribution columns of different types (text, integer) cannot be co-located',
      'citus_probe.by_month_bad: unique key by_month_bad_pkey (observed_at) lacks the distribution column market_id',
      'citus_probe.prices: unique key prices_observed_at_key (observed_at) lacks the distribution column market_id',
      'citus_probe.prices: unique key prices_seq_idx (seq) lacks the distribution column market_id',
      'citus_probe.marks: foreign key marks_run_id_fkey to citus_probe.runs: a distributed table may not reference a local table',
      'citus_probe.other_market: foreign key other_market_other_id_fkey to citus_probe.markets does not join the distribution columns',
      'citus_probe.ref_to_market: foreign key ref_to_market_market_id_fkey to citus_probe.markets: a reference table may not reference a distributed table',
      'citus_probe.marks: identity column n is integer, Citus needs bigint',
    ]);
  });
});
