import { createHash } from 'node:crypto';
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
 * Upserts a batch into a table with `first_seen_at`, `last_seen_at`, `changed_at` and
 * `content_hash` columns, in two statements:
 *
 * 1. Only keys and content hashes travel: rows whose stored hash matches are unchanged, and just
 *    get their last_seen_at moved (a narrow update that stays HOT: last_seen_at is in no index).
 *    In a steady state that is nearly every row, so most of a batch never crosses the wire in full.
 * 2. The rest (new, changed, or sent in a leaner form) go in full, and are compared column by
 *    column with the table *before* the upsert, so a row whose values did not change is neither
 *    locked nor rewritten. A plain `ON CONFLICT ... WHERE ... IS DISTINCT FROM` would lock every
 *    conflicting row.
 *
 * The compare-then-write is race-free because writers hold the write lock (acquireWriteLock). An
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
  const hashes = key.values.map((_, i) => contentHash(columns, i));
  const at = observedAt.toISOString();
  const matched = new Set(
    (
      await sql.unsafe<{ k: string }[]>(
        `with input as (select * from unnest($1::text[], $2::text[]) as t(k, h)),
         matched as (
           select s.${key.column} as k from input i join ${table} s on s.${key.column} = i.k and s.content_hash = i.h
         ),
         bumped as (
           update ${table} s set last_seen_at = $3::timestamptz
           from matched m where s.${key.column} = m.k and s.last_seen_at < $3::timestamptz
           returning 1
         )
         select k from matched`,
        [key.values, hashes, at] as never[],
      )
    ).map((r) => r.k),
  );
  if (matched.size === key.values.length) return { inserted: 0, updated: 0, unchanged: matched.size };

  const rest = key.values.flatMap((k, i) => (matched.has(k as string) ? [] : [i]));
  const pick = (c: UpsertColumn): UpsertColumn => ({ ...c, values: rest.map((i) => c.values[i]) });
  const hashColumn: UpsertColumn = { column: 'content_hash', bindAs: 'text', values: rest.map((i) => hashes[i]) };
  const counts = await upsertInFull(sql, table, pick(key), columns.map(pick), hashColumn, at);
  return { ...counts, unchanged: counts.unchanged + matched.size };
}

/** Identifies a row's values as sent: equal values, equal hashes. Fed value by value (no JSON.stringify: it was most of the cost). */
function contentHash(columns: readonly UpsertColumn[], row: number): string {
  const hash = createHash('sha256');
  for (const c of columns) {
    const value = c.values[row];
    // Type- and length-prefixed, so that null, "null" and adjacent values can never run together.
    const text = value === null || value === undefined ? null : String(value);
    hash.update(text === null ? 'null;' : `${typeof value}:${text.length}:`);
    if (text !== null) hash.update(text);
  }
  return hash.digest('base64url');
}

async function upsertInFull(
  sql: Queryable,
  table: string,
  key: UpsertColumn,
  columns: readonly UpsertColumn[],
  hash: UpsertColumn,
  at: string,
): Promise<UpsertCounts> {
  const all = [key, ...columns, hash];
  const names = all.map((c) => c.column);
  const content = columns.map((c) => c.column);
  const bound = all.map((c) => bindArray(c.bindAs, c.values));
  const params = [...bound.map((b) => b.values), at];
  const atParam = `$${params.length}::timestamptz`;
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
             t.content_hash, s.${key.column} is null as is_new, s.last_seen_at as stored_seen_at,
             s.${key.column} is not null and (${list('s.', content)}) is not distinct from
               (${columns.map((c) => (c.keepStoredWhenNull ? `coalesce(t.${c.column}, s.${c.column})` : `t.${c.column}`)).join(', ')}) as same
      from typed t left join ${table} s using (${key.column})
    ),
    written as (
      insert into ${table} as s (${names.join(', ')}, first_seen_at, last_seen_at, changed_at)
      select ${names.join(', ')}, ${atParam}, ${atParam}, ${atParam}
      from merged where not same and (is_new or stored_seen_at < ${atParam})
      on conflict (${key.column}) do update set
        ${[...content, 'content_hash'].map((c) => `${c} = excluded.${c}`).join(', ')},
        last_seen_at = excluded.last_seen_at, changed_at = excluded.changed_at
      where s.last_seen_at < excluded.last_seen_at
      returning (xmax = 0) as inserted
    ),
    seen as (
      -- Same values in another form (e.g. without the metadata a fuller record supplied): remember
      -- this form's hash, so the next identical record takes the fast path.
      update ${table} s set last_seen_at = ${atParam}, content_hash = m.content_hash
      from merged m where m.same and s.${key.column} = m.${key.column} and s.last_seen_at < ${atParam}
      returning 1
    )
    select (select count(*) filter (where inserted) from written)::int as inserted,
           (select count(*) filter (where not inserted) from written)::int as updated,
           (select count(*) from merged where same)::int as unchanged`;
  const [row] = await sql.unsafe<UpsertCounts[]>(query, params as never[]);
  return row ?? { inserted: 0, updated: 0, unchanged: 0 };
}
