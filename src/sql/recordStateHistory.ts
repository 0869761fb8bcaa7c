import { bindArray, type BindAs, type Queryable } from './queryable.js';

/** A state-history table: its key column and the state columns whose every distinct value gets a row. */
interface HistoryTable {
  table: string;
  key: string;
  state: readonly { column: string; bindAs: BindAs; convert?: string }[];
}

export const MARKET_STATE: HistoryTable = {
  table: 'prediction.market_state_history',
  key: 'market_id',
  state: [
    { column: 'status', bindAs: 'text' },
    { column: 'result', bindAs: 'text' },
    { column: 'settlement_time', bindAs: 'float8', convert: 'to_timestamp({})' },
  ],
};

export const EVENT_STATE: HistoryTable = {
  table: 'prediction.event_state_history',
  key: 'event_id',
  state: [
    { column: 'is_active', bindAs: 'boolean' },
    { column: 'is_live', bindAs: 'boolean' },
    { column: 'winner', bindAs: 'text' },
  ],
};

/**
 * Records the observed states: where one differs from the key's current row, closes that row at
 * `observedAt` and opens a new one. A repeated state adds nothing, and an observation not newer
 * than the current row's valid_from is ignored, so replaying a page is a no-op. Two statements,
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
  const cols = history.state.map((s) => s.column);
  const bound = history.state.map((col, i) => bindArray(col.bindAs, states.map((s) => s[i] ?? null)));
  const params = [keys, ...bound.map((b) => b.values), observedAt.toISOString()];
  const at = `$${params.length}::timestamptz`;
  const changed = `
    with input as (
      select * from unnest($1::text[], ${bound.map((b, i) => `$${i + 2}::${b.arrayType}`).join(', ')})
        as t(${history.key}, ${cols.join(', ')})
    ),
    typed as (
      select ${history.key}, ${history.state.map((s, i) => `${(s.convert ?? '{}').replaceAll('{}', s.column + bound[i]!.cast)} as ${s.column}`).join(', ')}
      from input
    )
    select t.* from typed t left join ${history.table} h on h.${history.key} = t.${history.key} and h.valid_to is null
    where h.${history.key} is null
       or ((${cols.map((c) => `h.${c}`).join(', ')}) is distinct from (${cols.map((c) => `t.${c}`).join(', ')})
           and h.valid_from < ${at})`;

  await sql.unsafe(
    `with changed as (${changed})
     update ${history.table} h set valid_to = ${at}
     from changed c where h.${history.key} = c.${history.key} and h.valid_to is null`,
    params as never[],
  );
  // The closed rows no longer count as current, so `changed` now finds exactly the keys to open.
  const inserted = await sql.unsafe(
    `insert into ${history.table} (${history.key}, ${cols.join(', ')}, valid_from)
     select ${history.key}, ${cols.join(', ')}, ${at} from (${changed}) c
     where not exists (select 1 from ${history.table} h where h.${history.key} = c.${history.key} and h.valid_from >= ${at})`,
    params as never[],
  );
  return inserted.count;
}
