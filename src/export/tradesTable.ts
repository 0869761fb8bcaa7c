import { getTableName } from 'drizzle-orm';

import { trades } from '../schema/index.js';
import { sqlNames } from '../sql/core/sqlNames.js';
import { changedSince, dayText, inRange, mergeDays, selectRowsByDay } from './daySql.js';
import { AMOUNT, tableColumns } from './exportColumns.js';
import type { ExportTable } from './ExportTable.js';

const t = sqlNames(trades);

/** The trade feed's fills, one row each, partitioned by the UTC day they were made; exact micro-USD amounts. */
export const tradesTable: ExportTable = {
  name: 'trades',
  source: t.table,
  columns: tableColumns(trades, { decimals: { priceMicroUsd: AMOUNT, amountMicroUsd: AMOUNT } }),
  partitionColumn: 'traded_at',
  orderBy: ['market_id', 'traded_at', 'trade_id'],
  ranged: true,
  changesCarryForward: false,
  optional: false,
  retainedIn: getTableName(trades),
  async days(sql, query) {
    const rows = await sql<{ day: string; rows: string; changed: boolean }[]>`
      select ${sql.unsafe(dayText(`x.${t.quoted.tradedAt}`))} as day, count(*)::bigint as rows,
             bool_or(${changedSince(sql, 'x', query.horizon)}) as changed
      from ${sql(t.table)} x
      where ${inRange(sql, `x.${t.quoted.tradedAt}`, query)}
      group by 1`;
    return mergeDays(rows);
  },
  select(selection) {
    return selectRowsByDay(this, { relation: t.quotedTable, alias: 'x', at: t.quoted.tradedAt }, selection);
  },
};
