import { getViewConfig, type PgView } from 'drizzle-orm/pg-core';

import { type Int8Column, quoteIdentifier, type Selection } from './sqlNames.js';

// sqlNames for the analytics views: their declarations in src/schema/analytics.ts (checked against
// the database by test/analytics/ormViews.test.ts) give the names a statement reads, so a column
// renamed there fails the type check wherever a statement uses it. Not drizzle's query builder:
// drizzle rewires the date and json parsers of the postgres.js pool it wraps, which would change
// what every other statement on that pool returns.

/** The TS keys of a view's columns, e.g. 'provider' | 'category' | … for data_freshness. */
export type ViewColumnKey<V extends PgView> = Extract<keyof V['_']['selectedFields'], string>;

/** The SQL names of a view and of its columns, computed once per view. */
export interface ViewNames<V extends PgView> {
  /** Schema-qualified and unquoted (`analytics.data_freshness`), for postgres.js identifier interpolation: `${sql(v.view)}`. */
  readonly view: string;
  /** Each column's SQL name by its TS key, interpolated as `${sql(v.col.x)}`. */
  readonly col: { readonly [K in ViewColumnKey<V>]: string };
  /** The same, quoted, for statement text built as a string. */
  readonly quoted: { readonly [K in ViewColumnKey<V>]: string };
}

const cache = new WeakMap<PgView, ViewNames<PgView>>();

/** The SQL names of `view` and its columns (see ViewNames). */
export function viewNames<V extends PgView>(view: V): ViewNames<V> {
  const known = cache.get(view);
  if (known) return known as unknown as ViewNames<V>;
  const config = getViewConfig(view);
  const col: Record<string, string> = {};
  const quoted: Record<string, string> = {};
  for (const [key, field] of Object.entries(config.selectedFields)) {
    // A declared view holds columns only (`.view(name, columns).existing()`); each has its SQL name.
    const { name } = field as { name: string };
    col[key] = name;
    quoted[key] = quoteIdentifier(name);
  }
  const names = {
    view: config.schema === undefined ? config.name : `${config.schema}.${config.name}`,
    col: Object.freeze(col),
    quoted: Object.freeze(quoted),
  } as ViewNames<V>;
  cache.set(view, names as unknown as ViewNames<PgView>);
  return names;
}

type ViewField<V extends PgView, P extends ViewColumnKey<V>> = V['_']['selectedFields'][P];

/** A row of these view columns as postgres.js returns them: the declaration's types, int8 as strings (see SelectedRow). */
export type SelectedViewRow<V extends PgView, K extends ViewColumnKey<V>> = {
  [P in K]: ViewField<V, P> extends { _: { columnType: Int8Column } }
    ? Exclude<V['$inferSelect'][P], number | bigint> | string
    : V['$inferSelect'][P];
};

/** The select list of these columns of `view`, each aliased to its TS key (see `selection` in sqlNames.ts). */
export function viewSelection<V extends PgView, const K extends ViewColumnKey<V>>(
  view: V,
  keys: readonly K[],
  qualifier?: string,
): Selection<SelectedViewRow<V, K>> {
  const { quoted } = viewNames(view);
  const prefix = qualifier === undefined ? '' : `${qualifier}.`;
  return { text: keys.map((key) => `${prefix}${quoted[key]} as ${quoteIdentifier(key)}`).join(', ') };
}

/** The select list of every column of `view` but `omitted` (see viewSelection). */
export function viewSelectionWithout<V extends PgView, const O extends ViewColumnKey<V>>(
  view: V,
  omitted: readonly O[],
): Selection<SelectedViewRow<V, Exclude<ViewColumnKey<V>, O>>> {
  const keys = Object.keys(viewNames(view).col) as ViewColumnKey<V>[];
  return viewSelection(
    view,
    keys.filter((key): key is Exclude<ViewColumnKey<V>, O> => !(omitted as readonly string[]).includes(key)),
  );
}
