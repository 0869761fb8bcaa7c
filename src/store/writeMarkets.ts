import type { Checked, Market } from '../domain/types.js';
import type { Sql } from '../db/connect.js';
import { acquireWriteLock, type WriteFence } from '../sql/acquireWriteLock.js';
import { markDetailFetched } from '../sql/markDetailFetched.js';
import { quarantineRecords } from '../sql/quarantineRecords.js';
import type { MarketRow } from '../sql/upsertMarkets.js';
import { writeMarketRows } from './writeMarketRows.js';
import { lastByKey, type WriteCounts } from './writeCounts.js';

export interface MarketsWrite {
  runId: number | null;
  /** Route template: "/markets/{marketId}" (a market's own detail) or "/events/{eventId}/markets". */
  endpoint: string;
  /** Each market with the event and provider it belongs to (the wire market carries neither). */
  markets: readonly { checked: Checked<Market>; eventId: string; provider: string }[];
  observedAt: Date;
  /** Checked in the transaction before anything is written (see WriteFence). */
  fence?: WriteFence | undefined;
}

/** Writes a batch of markets fetched on their own (detail refresh or an event's market list) in one transaction. */
export async function writeMarkets(sql: Sql, batch: MarketsWrite): Promise<WriteCounts> {
  const rows: MarketRow[] = lastByKey(
    batch.markets.flatMap((m) => (m.checked.ok ? [{ ...m.checked.value, eventId: m.eventId, provider: m.provider }] : [])),
    (m) => m.marketId,
  );
  const rejected = batch.markets.flatMap((m) => (m.checked.ok ? [] : [{ ...m.checked.rejection, endpoint: batch.endpoint }]));
  const at = batch.observedAt;
  return sql.begin(async (tx) => {
    await acquireWriteLock(tx, batch.fence);
    const mk = await writeMarketRows(tx, rows, at);
    const quarantined = await quarantineRecords(tx, batch.runId, rejected, at);
    if (batch.endpoint === '/markets/{marketId}') await markDetailFetched(tx, rows.map((m) => m.marketId), at);
    return {
      recordsSeen: batch.markets.length,
      recordsWritten: mk.inserted + mk.updated,
      recordsRejected: rejected.length,
      rowsByTable: { markets: mk.inserted, market_state_history: mk.states, pricing_snapshots: mk.pricing, rejected_records: quarantined },
    };
  }) as Promise<WriteCounts>;
}
