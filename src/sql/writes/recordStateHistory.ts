import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

import { events, eventStateHistory, markets, marketStateHistory } from '../../schema/index.js';
import { bindArray, type BindAs, type Queryable } from '../core/queryable.js';
import { type ColumnKey, sqlNames } from '../core/sqlNames.js';

/** A state-history table: one row per distinct state of a key, valid over [validFrom, validTo). */
type HistoryTableSchema = PgTable & { validFrom: PgColumn; validTo: PgColumn };

/** A state-history table's key column and the state columns whose every distinct value gets a row, by quoted SQL name. */
interface HistoryTable {
  table: string;
  key: string;
  validFrom: string;
  validTo: string;
  state: readonly { column: string; bindAs: BindAs; convert?: string }[];
  /** The table of the keys themselves, whose last_seen_at is when each was last observed. */
  observedIn: { table: string; key: string; lastSeenAt: string };
}

/** The SQL names of a history table, computed once: columns by their TS keys in the drizzle schema. */
function historyTable<T extends HistoryTableSchema>(
  table: T,
  key: ColumnKey<T>,
  state: readonly { column: ColumnKey<T>; bindAs: BindAs; convert?: string }[],
  observedIn: typeof markets | typeof events,
): HistoryTable {
  const entity = sqlNames<typeof markets | typeof events>(observedIn);
  const names = sqlNames(table);
  // T has validFrom and validTo (HistoryTableSchema), which TS cannot see through ColumnKey<T>.
  const quoted = names.quoted as Readonly<Record<ColumnKey<T> | 'validFrom' | 'validTo', string>>;
  return {
    table: names.quotedTable,
    key: quoted[key],
    validFrom: quoted.validFrom,
    validTo: quoted.validTo,
    state: state.map((s) => ({ ...s, column: quoted[s.column] })),
    observedIn: { table: entity.quotedTable, key: quoted[key], lastSeenAt: entity.quoted.lastSeenAt },
  };
}

export const MARKET_STATE: HistoryTable = historyTable(
  marketStateHistory,
  'marketId',
  [
    { column: 'status', bindAs: 'text' },
    { column: 'result', bindAs: 'text' },
    { column: 'settlementTime', bindAs: 'float8', convert: 'to_timestamp({})' },
  ],
  markets,
);

export const EVENT_STATE: HistoryTable = historyTable(
  eventStateHistory,
  'eventId',
  [
    { column: 'isActive', bindAs: 'boolean' },
    { column: 'isLive', bindAs: 'boolean' },
    { column: 'winner', bindAs: 'text' },
  ],
  events,
);

/**
 * Records the observed states: where one differs from the key's current row, closes that row at
 * `observedAt` and opens a new one. A repeated state adds nothing, and an observation not newer
 * than the current row's valid_from is ignored, so replaying a page is a no-op; so is one older
 * than the key's last observation (its last_seen_at, which the upsert run before this one moved
 * only for an observation newer than it): it arrived late, and what was seen after it stands. Two statements,
 * in this order, because the one-current-row unique index would see both rows at once otherwise.
 * Keys must be unique within the batch. Returns the number of rows opened.
 */
export async function recordStateHistory(
  sql: Queryable,
  history: HistoryTable,
  keys: readonly string[],
  states: readonly (readonly unknown[])[],
  observedAt: Date,
): Promise<number> {
  if (keys.length === 0) return 0;
  const { table, key, validFrom, validTo, observedIn: o } = history;
  const cols = history.state.map((s) => s.column);
  const bound = history.state.map((col, i) =>
    bindArray(
      col.bindAs,
      states.map((s) => s[i] ?? null),
    ),
  );
  const params = [keys, ...bound.map((b) => b.values), observedAt.toISOString()];
  const at = `$${params.length}::timestamptz`;
  const changed = `
    with input as (
      select * from unnest($1::text[], ${bound.map((b, i) => `$${i + 2}::${b.arrayType}`).join(', ')})
        as t(${key}, ${cols.join(', ')})
    ),
    typed as (
      select ${key}, ${history.state.map((s, i) => `${(s.convert ?? '{}').replaceAll('{}', s.column + bound[i]!.cast)} as ${s.column}`).join(', ')}
      from input
    )
    select t.* from typed t left join ${table} h on h.${key} = t.${key} and h.${validTo} is null
    left join ${o.table} o on o.${o.key} = t.${key}
    where (o.${o.key} is null or o.${o.lastSeenAt} <= ${at})
      and (h.${key} is null
           or ((${cols.map((c) => `h.${c}`).join(', ')}) is distinct from (${cols.map((c) => `t.${c}`).join(', ')})
               and h.${validFrom} < ${at}))`;

  await sql.unsafe(
    `with changed as (${changed})
     update ${table} h set ${validTo} = ${at}
     from changed c where h.${key} = c.${key} and h.${validTo} is null`,
    params as never[],
  );
  // The closed rows no longer count as current, so `changed` now finds exactly the keys to open.
  const inserted = await sql.unsafe(
    `insert into ${table} (${key}, ${cols.join(', ')}, ${validFrom})
     select c.${key}, ${cols.map((c) => `c.${c}`).join(', ')}, ${at} from (${changed}) c
     left join ${table} later on later.${key} = c.${key} and later.${validFrom} >= ${at}
     where later.${key} is null`,
    params as never[],
  );
  return inserted.count;
}
