import { getTableName } from 'drizzle-orm';

import type { Sql } from '../db/connect.js';
import { writeTransaction } from '../db/writeTransaction.js';
import type { Checked, Event } from '../domain/types.js';
import * as schema from '../schema/index.js';
import type { WriteFence } from '../sql/coordination/acquireWriteLock.js';
import { quarantineRecords } from '../sql/writes/quarantineRecords.js';
import { recordShapes } from '../sql/writes/recordShapes.js';
import { EVENT_STATE, recordStateHistory } from '../sql/writes/recordStateHistory.js';
import { upsertEvents } from '../sql/writes/upsertEvents.js';
import type { MarketRow } from '../sql/writes/upsertMarkets.js';
import { RecordTally } from './recordTally.js';
import { lastByKey, type WriteCounts } from './writeCounts.js';
import { writeMarketRows } from './writeMarketRows.js';

export interface EventsWrite {
  runId: number | null;
  /** Route template the events came from, for the quarantine, e.g. "/events". */
  endpoint: string;
  events: readonly Checked<Event>[];
  observedAt: Date;
  /** Checked in the transaction before anything is written (see WriteFence). */
  fence?: WriteFence | undefined;
}

/**
 * Writes a page of events, with their embedded markets and prices, in one transaction: the page
 * and everything derived from it commit together or not at all. Invalid records (events, or single
 * markets inside a valid event) are quarantined while their valid neighbours are stored.
 */
export async function writeEvents(sql: Sql, page: EventsWrite): Promise<WriteCounts> {
  const tally = new RecordTally();
  const marketEndpoint = `${page.endpoint}#markets`;
  for (const c of page.events) {
    if (!c.ok) {
      tally.rejected(page.endpoint, c.rejection);
      continue;
    }
    tally.accepted(page.endpoint, c.value);
    for (const m of c.value.markets ?? []) tally.acceptedMarket(marketEndpoint, m);
    for (const r of c.value.rejectedMarkets) tally.rejected(marketEndpoint, r);
  }
  const valid = lastByKey(
    page.events.flatMap((c) => (c.ok ? [c.value] : [])),
    (e) => e.eventId,
  );
  const markets: MarketRow[] = lastByKey(
    valid.flatMap((e) => (e.markets ?? []).map((m) => ({ ...m, eventId: e.eventId, provider: e.provider ?? 'unknown' }))),
    (m) => m.marketId,
  );
  const at = page.observedAt;

  return writeTransaction(sql, page.fence, async (tx) => {
    const ev = await upsertEvents(tx, valid, at);
    const eventStates = await recordStateHistory(
      tx,
      EVENT_STATE,
      valid.map((e) => e.eventId),
      valid.map((e) => [e.isActive, e.isLive, e.winner]),
      at,
    );
    const mk = await writeMarketRows(tx, markets, at);
    const quarantined = await quarantineRecords(tx, page.runId, tally.quarantined, at);
    const shapes = await recordShapes(tx, page.runId, tally.shapes, at);
    return {
      recordsSeen: page.events.length + valid.reduce((n, e) => n + (e.markets?.length ?? 0) + e.rejectedMarkets.length, 0),
      recordsWritten: ev.inserted + ev.updated + mk.inserted + mk.updated,
      ...tally.counts(),
      rowsByTable: {
        [getTableName(schema.events)]: ev.inserted,
        [getTableName(schema.markets)]: mk.inserted,
        [getTableName(schema.eventStateHistory)]: eventStates,
        [getTableName(schema.marketStateHistory)]: mk.states,
        [getTableName(schema.pricingSnapshots)]: mk.pricing,
        [getTableName(schema.rejectedRecords)]: quarantined,
        [getTableName(schema.upstreamShapes)]: shapes,
      },
    };
  });
}
