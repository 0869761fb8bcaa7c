import { historyHorizons } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import type { RowOf } from '../core/sqlNames.js';
import { viewNames, viewSelection } from '../core/viewNames.js';

const { view, col: c } = viewNames(historyHorizons);
const HORIZONS = viewSelection(historyHorizons, ['tableName', 'horizon', 'partitionsDropped', 'rowsDropped', 'lastDroppedAt']);

/** A row of analytics.history_horizons: a table whose old months retention dropped, and its horizon. */
export type HistoryHorizonRow = RowOf<typeof HORIZONS>;

/** Every table retention has dropped months of, by name. */
export async function selectHistoryHorizons(sql: Queryable): Promise<HistoryHorizonRow[]> {
  return sql<HistoryHorizonRow[]>`select ${sql.unsafe(HORIZONS.text)} from ${sql(view)} order by ${sql(c.tableName)}`;
}
