import { bindArray, type BindAs, type Queryable } from './queryable.js';

/** One column of a change-only upsert: its values travel as one array parameter. */
export interface UpsertColumn {
  column: string;
  /** Array element type the values are bound as: text, float8, boolean. */
  bindAs: BindAs;
  /** SQL turning the bound value `{}` into the column's type, e.g. "to_timestamp({})"; default "{}". */
  convert?: string;
  values: readonly unknown[];
  /**
   * Keep the stored value where the new one is null. For fields a lean record may omit (a listing's
   * market without `metadata`) that a fuller record (its detail) supplied: without it the two
   * sources would overwrite each other every cycle.
   */
  keepStoredWhenNull?: boolean;
}

export interface UpsertCounts {
  inserted: number;
  updated: number;
  /** Rows whose content was unchanged: only last_seen_at moved. */
  unchanged: number;
}

/**
 * Upserts a batch into a table with `first_seen_at`, `last_seen_at` and `changed_at` columns.
 *
 * Rows are compared with the table *before* the upsert, so an unchanged row is neither locked nor
 * rewritten: it only gets its last_seen_at moved, a narrow update that stays HOT (last_seen_at is
 * in no index). A plain `ON CONFLICT ... WHERE ... IS DISTINCT FROM` would lock every conflicting
 * row. The pre-filter is race-free because writers hold the write lock (acquireWriteLock). An
 * observation older than the stored one changes nothing. Keys must be unique within the batch.
 */
export async function changeOnlyUpsert(
  sql: Queryable,
  table: string,
  key: UpsertColumn,
  columns: readonly UpsertColumn[],
  observedAt: Date,
): Promise<UpsertCounts> {
  if (key.values.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
  const all = [key, ...columns];
  const names = all.map((c) => c.column);
  const content = columns.map((c) => c.column);
  const bound = all.map((c) => bindArray(c.bindAs, c.values));
  const params = [...bound.map((b) => b.values), observedAt.toISOString()];
  const at = `$${params.length}::timestamptz`;
  const list = (prefix: string, cols: readonly string[]) => cols.map((c) => `${prefix}${c}`).join(', ');

  const query = `
    with input as (
      select * from unnest(${bound.map((b, i) => `$${i + 1}::${b.arrayType}`).join(', ')}) as t(${names.join(', ')})
    ),
    typed as (
      select ${all.map((c, i) => `${(c.convert ?? '{}').replaceAll('{}', c.column + bound[i]!.cast)} as ${c.column}`).join(', ')} from input
    ),
    merged as (
      select t.${key.column}, ${columns.map((c) => (c.keepStoredWhenNull ? `coalesce(t.${c.column}, s.${c.column}) as ${c.column}` : `t.${c.column}`)).join(', ')},
             s.${key.column} is null as is_new, s.last_seen_at as stored_seen_at
      from typed t left join ${table} s using (${key.column})
    ),
    compared as (
      select m.*, (not m.is_new and (${list('s.', content)}) is not distinct from (${list('m.', content)})) as same
      from merged m left join ${table} s using (${key.column})
    ),
    written as (
      insert into ${table} as s (${names.join(', ')}, first_seen_at, last_seen_at, changed_at)
      select ${names.join(', ')}, ${at}, ${at}, ${at}
      from compared where not same and (is_new or stored_seen_at < ${at})
      on conflict (${key.column}) do update set
        ${content.map((c) => `${c} = excluded.${c}`).join(', ')},
        last_seen_at = excluded.last_seen_at, changed_at = excluded.changed_at
      where s.last_seen_at < excluded.last_seen_at
      returning (xmax = 0) as inserted
    ),
    seen as (
      update ${table} s set last_seen_at = ${at}
      from compared c where c.same and s.${key.column} = c.${key.column} and s.last_seen_at < ${at}
      returning 1
    )
    select (select count(*) filter (where inserted) from written)::int as inserted,
           (select count(*) filter (where not inserted) from written)::int as updated,
           (select count(*) from compared where same)::int as unchanged`;
  const [row] = await sql.unsafe<UpsertCounts[]>(query, params as never[]);
  return row ?? { inserted: 0, updated: 0, unchanged: 0 };
}
