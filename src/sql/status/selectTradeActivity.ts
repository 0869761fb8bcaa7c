import { tradePolls, trades } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: tradeTable, col: t } = sqlNames(trades);
const { table: pollTable, col: p } = sqlNames(tradePolls);

export interface TradeActivity {
  /** Trades made from `since` to `at`. */
  trades: number;
  /** Polls of the feed from `since` on, and of those the ones that may have missed trades before them. */
  polls: number;
  gaps: number;
  lastPolledAt: Date | null;
  lastGapAt: Date | null;
}

/** What the trade feed gave from `since` to `at`: trades made, polls and gaps. */
export async function selectTradeActivity(sql: Queryable, since: Date, at: Date): Promise<TradeActivity> {
  const [row] = await sql<TradeActivity[]>`
    select (select count(*)::int from ${sql(tradeTable)}
             where ${sql(t.tradedAt)} >= ${since}::timestamptz and ${sql(t.tradedAt)} <= ${at}::timestamptz) as trades,
           count(*)::int as polls,
           (count(*) filter (where ${sql(p.gapBefore)}))::int as gaps,
           max(${sql(p.polledAt)}) as "lastPolledAt",
           max(${sql(p.polledAt)}) filter (where ${sql(p.gapBefore)}) as "lastGapAt"
    from ${sql(pollTable)} where ${sql(p.polledAt)} >= ${since}::timestamptz`;
  return row!;
}
