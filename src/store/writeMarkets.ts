import { getTableName } from 'drizzle-orm';

import type { Sql } from '../db/connect.js';
import { writeTransaction } from '../db/writeTransaction.js';
import type { Checked, Market } from '../domain/types.js';
import * as schema from '../schema/index.js';
import type { WriteFence } from '../sql/coordination/acquireWriteLock.js';
import { markDetailFetched } from '../sql/writes/markDetailFetched.js';
import { quarantineRecords } from '../sql/writes/quarantineRecords.js';
import { recordShapes } from '../sql/writes/recordShapes.js';
import type { MarketRow } from '../sql/writes/upsertMarkets.js';
import { RecordTally } from './recordTally.js';
import { lastByKey, type WriteCounts } from './writeCounts.js';
import { writeMarketRows } from './writeMarketRows.js';

export interface MarketsWrite {
  runId: number | null;
  /** Route template the markets came from, for the quarantine and the counts. */
  endpoint: string;
  /** True for a market's own detail (GET /markets/{id}): its detail_fetched_at moves. */
  isDetail: boolean;
  /** Each market with the event and provider it belongs to (the wire market carries neither). */
  markets: readonly { checked: Checked<Market>; eventId: string; provider: string }[];
  observedAt: Date;
  /** Checked in the transaction before anything is written (see WriteFence). */
  fence?: WriteFence | undefined;
}

/** Writes a batch of markets fetched on their own (detail refresh or an event's market list) in one transaction. */
export async function writeMarkets(sql: Sql, batch: MarketsWrite): Promise<WriteCounts> {
  const tally = new RecordTally();
  for (const m of batch.markets) {
    if (m.checked.ok) tally.acceptedMarket(batch.endpoint, m.checked.value);
    else tally.rejected(batch.endpoint, m.checked.rejection);
  }
  const rows: MarketRow[] = lastByKey(
    batch.markets.flatMap((m) => (m.checked.ok ? [{ ...m.checked.value, eventId: m.eventId, provider: m.provider }] : [])),
    (m) => m.marketId,
  );
  const at = batch.observedAt;
  return writeTransaction(sql, batch.fence, async (tx) => {
    const mk = await writeMarketRows(tx, rows, at);
    const quarantined = await quarantineRecords(tx, batch.runId, tally.quarantined, at);
    const shapes = await recordShapes(tx, batch.runId, tally.shapes, at);
    if (batch.isDetail)
      await markDetailFetched(
        tx,
        rows.map((m) => m.marketId),
        at,
      );
    return {
      recordsSeen: batch.markets.length,
      recordsWritten: mk.inserted + mk.updated,
      ...tally.counts(),
      rowsByTable: {
        [getTableName(schema.markets)]: mk.inserted,
        [getTableName(schema.marketStateHistory)]: mk.states,
        [getTableName(schema.pricingSnapshots)]: mk.pricing,
        [getTableName(schema.rejectedRecords)]: quarantined,
        [getTableName(schema.upstreamShapes)]: shapes,
      },
    };
  });
}
