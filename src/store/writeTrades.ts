import { getTableName } from 'drizzle-orm';

import type { Sql } from '../db/connect.js';
import { writeTransaction } from '../db/writeTransaction.js';
import type { Checked, Trade, TradedBook } from '../domain/types.js';
import * as schema from '../schema/index.js';
import type { WriteFence } from '../sql/coordination/acquireWriteLock.js';
import { ensureMonthPartitions } from '../sql/core/ensureMonthPartitions.js';
import { insertTrades } from '../sql/writes/insertTrades.js';
import { quarantineRecords } from '../sql/writes/quarantineRecords.js';
import { recordShapes } from '../sql/writes/recordShapes.js';
import { recordTradePoll, selectLastTradePoll } from '../sql/writes/recordTradePoll.js';
import { RecordTally } from './recordTally.js';
import { type TradeCoverage, tradeCoverage } from './tradeCoverage.js';
import { lastByKey, type WriteCounts } from './writeCounts.js';

/**
 * How far a trade's time may lie from the poll that carried it and still be believed: a day ahead
 * (clocks disagree a little, never by days), a year behind (the feed holds its latest fills). A
 * time outside cannot be read soundly, and would create partitions far from any data.
 */
export const TRADE_TIME_WINDOW_SEC = { ahead: 86_400, behind: 366 * 86_400 } as const;

export interface TradesWrite {
  runId: number | null;
  /** Route template the trades came from, for the quarantine and the counts. */
  endpoint: string;
  /** The feed's answer, in its order. */
  trades: readonly Checked<Trade>[];
  polledAt: Date;
  fence?: WriteFence | undefined;
}

export interface TradesWritten {
  counts: WriteCounts;
  coverage: TradeCoverage;
  /** Newest minus oldest trade time of the answer, seconds; null with fewer than two trades. */
  spanSec: number | null;
  /** The markets of the trades no earlier poll had stored, each with its latest of them. */
  traded: TradedBook[];
}

/**
 * Writes one poll of the trade feed in one transaction: the trades not stored yet, the quarantine
 * (unreadable rows, and times far from the poll), the shapes, and the poll's coverage. Replaying a
 * poll adds no trade, only a poll row that joins the previous one.
 */
export function writeTrades(sql: Sql, batch: TradesWrite): Promise<TradesWritten> {
  const tally = new RecordTally();
  const accepted: Trade[] = [];
  const polledSec = batch.polledAt.getTime() / 1000;
  for (const checked of batch.trades) {
    if (!checked.ok) tally.rejected(batch.endpoint, checked.rejection);
    else if (!withinWindow(checked.value.tradedAtSec, polledSec)) tally.rejected(batch.endpoint, outsideWindow(checked.value));
    else {
      tally.accepted(batch.endpoint, checked.value);
      accepted.push(checked.value);
    }
  }
  const unique = lastByKey(accepted, (t) => t.tradeId);
  const times = unique.map((t) => t.tradedAtSec);
  const spanSec = times.length < 2 ? null : Math.max(...times) - Math.min(...times);

  return writeTransaction(sql, batch.fence, async (tx) => {
    // Month by month: a quiet feed's answer may reach back months, and only its own months are needed.
    for (const month of utcMonths(times)) await ensureMonthPartitions(tx, month);
    const [quarantined, shapes, previous, inserted] = await Promise.all([
      quarantineRecords(tx, batch.runId, tally.quarantined, batch.polledAt),
      recordShapes(tx, batch.runId, tally.shapes, batch.polledAt),
      selectLastTradePoll(tx),
      insertTrades(tx, unique, batch.polledAt),
    ]);
    const coverage = tradeCoverage(
      { rows: batch.trades.length, tradedAtSec: times, overlapsStored: inserted.size < unique.length, polledAt: batch.polledAt },
      previous?.coversTo ?? null,
    );
    await recordTradePoll(tx, {
      runId: batch.runId,
      polledAt: batch.polledAt,
      tradesSeen: unique.length,
      tradesNew: inserted.size,
      ...coverage,
    });
    const counts: WriteCounts = {
      recordsSeen: batch.trades.length,
      recordsWritten: inserted.size,
      ...tally.counts(),
      rowsByTable: {
        [getTableName(schema.trades)]: inserted.size,
        [getTableName(schema.tradePolls)]: 1,
        [getTableName(schema.rejectedRecords)]: quarantined,
        [getTableName(schema.upstreamShapes)]: shapes,
      },
    };
    return { counts, coverage, spanSec, traded: latestByMarket(unique.filter((t) => inserted.has(t.tradeId))) };
  });
}

/** Each market of these trades with its latest trade's time. */
function latestByMarket(trades: readonly Trade[]): TradedBook[] {
  const latest = new Map<string, number>();
  for (const t of trades) latest.set(t.marketId, Math.max(latest.get(t.marketId) ?? -Infinity, t.tradedAtSec * 1000));
  return Array.from(latest, ([marketId, tradedAtMs]) => ({ marketId, tradedAtMs }));
}

/** The first instant of each distinct UTC month of these times (Unix seconds). */
function utcMonths(timesSec: readonly number[]): Date[] {
  const starts = new Set(timesSec.map((s) => Date.UTC(new Date(s * 1000).getUTCFullYear(), new Date(s * 1000).getUTCMonth(), 1)));
  return [...starts].map((ms) => new Date(ms));
}

function withinWindow(tradedAtSec: number, polledSec: number): boolean {
  return tradedAtSec <= polledSec + TRADE_TIME_WINDOW_SEC.ahead && tradedAtSec >= polledSec - TRADE_TIME_WINDOW_SEC.behind;
}

function outsideWindow(trade: Trade) {
  const reason = `timestamp: ${new Date(trade.tradedAtSec * 1000).toISOString()} is more than a day after or a year before the poll that carried it`;
  return { entityId: trade.tradeId, reason, payload: trade.raw, shape: trade.shape };
}
