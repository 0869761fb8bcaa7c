import type { Trade } from '../../domain/types.js';
import { trades } from '../../schema/index.js';
import { jsonText, type Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table, col } = sqlNames(trades);

/**
 * Inserts the trades not stored yet; a trade already stored (seen by an earlier poll) is left as it
 * is, so replaying a poll is a no-op. Returns the ids of the trades it inserted. Their months'
 * partitions must exist (ensureMonthPartitions) and ids must be unique within the batch.
 */
export async function insertTrades(sql: Queryable, batch: readonly Trade[], observedAt: Date): Promise<Set<string>> {
  if (batch.length === 0) return new Set();
  const pick = <K extends keyof Trade>(k: K) => batch.map((t) => t[k]);
  const rows = await sql<{ tradeId: string }[]>`
    insert into ${sql(table)} (${sql(col.marketId)}, ${sql(col.tradedAt)}, ${sql(col.tradeId)}, ${sql(col.eventId)},
      ${sql(col.action)}, ${sql(col.side)}, ${sql(col.priceMicroUsd)}, ${sql(col.amountMicroUsd)}, ${sql(col.ownerPubkey)},
      ${sql(col.observedAt)}, ${sql(col.drift)}, ${sql(col.raw)})
    select t.market_id, to_timestamp(t.traded_at_sec), t.trade_id, t.event_id, t.action, t.side, t.price::numeric,
           t.amount::numeric, t.owner_pubkey, ${observedAt}::timestamptz,
           coalesce((select array_agg(d) from jsonb_array_elements_text(t.drift::jsonb) d), '{}'), t.raw::jsonb
    from unnest(${pick('marketId')}::text[], ${pick('tradedAtSec').map(String)}::float8[], ${pick('tradeId')}::text[],
                ${pick('eventId')}::text[], ${pick('action')}::text[], ${pick('side')}::text[], ${pick('priceMicroUsd')}::text[],
                ${pick('amountMicroUsd')}::text[], ${pick('ownerPubkey')}::text[],
                ${batch.map((t) => jsonText(t.drift))}::text[], ${batch.map((t) => jsonText(t.raw))}::text[])
         as t(market_id, traded_at_sec, trade_id, event_id, action, side, price, amount, owner_pubkey, drift, raw)
    on conflict do nothing
    returning ${sql(col.tradeId)} as "tradeId"`;
  return new Set(rows.map((r) => r.tradeId));
}
