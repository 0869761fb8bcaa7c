/**
 * What the data-model picture shows, read from a migrated database's catalog: the relations of
 * `prediction` and `analytics`, their key columns, the `analytics` functions, and which of them each
 * view and function reads.
 */
import type postgres from 'postgres';

export type ObjectKind = 'table' | 'view' | 'function';

export interface CatalogObject {
  /** `schema.name`, with `()` after a function's name (overloads are one object). */
  id: string;
  schema: 'prediction' | 'analytics';
  name: string;
  kind: ObjectKind;
  /** The primary key's columns, in key order; empty for a view or a function. */
  keyColumns: string[];
  /** Ids of the objects it reads, sorted. */
  reads: string[];
}

const SCHEMAS = ['prediction', 'analytics'];

/** The catalog, sorted by id, so that the same migrations always give the same picture. */
export async function readCatalog(sql: postgres.Sql): Promise<CatalogObject[]> {
  const relations = await sql<{ schema: 'prediction' | 'analytics'; name: string; relkind: string; key_columns: string[] }[]>`
    select n.nspname as schema, c.relname as name, c.relkind,
           coalesce((select array_agg(a.attname::text order by k.ord)
                     from pg_constraint pk
                     cross join unnest(pk.conkey) with ordinality as k(attnum, ord)
                     join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
                     where pk.conrelid = c.oid and pk.contype = 'p'), '{}') as key_columns
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = any(${SCHEMAS}) and c.relkind in ('r', 'p', 'v', 'm') and not c.relispartition`;
  const functions = await sql<{ name: string; body: string }[]>`
    select p.proname as name, p.prosrc as body
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'analytics' and p.prokind = 'f'`;
  // A view reads what its rewrite rule depends on: relations, and functions it calls.
  const viewReads = await sql<{ reader: string; read: string }[]>`
    select distinct vn.nspname || '.' || v.relname as reader,
           case when d.refclassid = 'pg_class'::regclass
                then (select tn.nspname || '.' || t.relname from pg_class t join pg_namespace tn on tn.oid = t.relnamespace where t.oid = d.refobjid)
                else (select fn.nspname || '.' || f.proname || '()' from pg_proc f join pg_namespace fn on fn.oid = f.pronamespace where f.oid = d.refobjid)
           end as read
    from pg_rewrite r
    join pg_class v on v.oid = r.ev_class
    join pg_namespace vn on vn.oid = v.relnamespace
    join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid
    where vn.nspname = any(${SCHEMAS})
      and d.refclassid in ('pg_class'::regclass, 'pg_proc'::regclass)
      and d.refobjid <> v.oid`;

  const objects = new Map<string, CatalogObject>();
  for (const r of relations) {
    const id = `${r.schema}.${r.name}`;
    const kind: ObjectKind = r.relkind === 'v' || r.relkind === 'm' ? 'view' : 'table';
    objects.set(id, { id, schema: r.schema, name: r.name, kind, keyColumns: r.key_columns, reads: [] });
  }
  for (const f of functions) {
    const id = `analytics.${f.name}()`;
    if (!objects.has(id)) objects.set(id, { id, schema: 'analytics', name: `${f.name}()`, kind: 'function', keyColumns: [], reads: [] });
  }
  const reads = new Map<string, Set<string>>();
  const addRead = (reader: string, read: string): void => {
    if (reader === read || !objects.has(reader) || !objects.has(read)) return;
    let set = reads.get(reader);
    if (set === undefined) reads.set(reader, (set = new Set()));
    set.add(read);
  };
  for (const { reader, read } of viewReads) addRead(reader, read);
  // Postgres records no dependency for a PL/pgSQL or SQL function's body: what it reads is the
  // schema-qualified names the body mentions (the migrations qualify every name).
  for (const f of functions) {
    for (const m of f.body.matchAll(/\b(prediction|analytics)\.([a-z_][a-z0-9_]*)/g)) {
      const name = `${m[1]}.${m[2]}`;
      addRead(`analytics.${f.name}()`, objects.has(name) ? name : `${name}()`);
    }
  }
  for (const [reader, set] of reads) objects.get(reader)!.reads = [...set].sort();
  return [...objects.values()].sort((a, b) => a.id.localeCompare(b.id));
}
