import type { Checked, Event, Rejection } from '../domain/types.js';
import type { Sql } from '../db/connect.js';
import { acquireWriteLock, type WriteFence } from '../sql/acquireWriteLock.js';
import { quarantineRecords, type QuarantinedRecord } from '../sql/quarantineRecords.js';
import { EVENT_STATE, recordStateHistory } from '../sql/recordStateHistory.js';
import { upsertEvents } from '../sql/upsertEvents.js';
import type { MarketRow } from '../sql/upsertMarkets.js';
import { writeMarketRows } from './writeMarketRows.js';
import { lastByKey, type WriteCounts } from './writeCounts.js';

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
  const valid = lastByKey(
    page.events.flatMap((c) => (c.ok ? [c.value] : [])),
    (e) => e.eventId,
  );
  const rejected: QuarantinedRecord[] = [
    ...page.events.flatMap((c) => (c.ok ? [] : [{ ...c.rejection, endpoint: page.endpoint }])),
    ...valid.flatMap((e) => e.rejectedMarkets.map((r: Rejection) => ({ ...r, endpoint: `${page.endpoint}#markets` }))),
  ];
  const markets: MarketRow[] = lastByKey(
    valid.flatMap((e) => (e.markets ?? []).map((m) => ({ ...m, eventId: e.eventId, provider: e.provider ?? 'unknown' }))),
    (m) => m.marketId,
  );
  const at = page.observedAt;

  return sql.begin(async (tx) => {
    await acquireWriteLock(tx, page.fence);
    const ev = await upsertEvents(tx, valid, at);
    const eventStates = await recordStateHistory(tx, EVENT_STATE, valid.map((e) => e.eventId), valid.map((e) => [e.isActive, e.isLive, e.winner]), at);
    const mk = await writeMarketRows(tx, markets, at);
    const quarantined = await quarantineRecords(tx, page.runId, rejected, at);
    return {
      recordsSeen: page.events.length + valid.reduce((n, e) => n + (e.markets?.length ?? 0) + e.rejectedMarkets.length, 0),
      recordsWritten: ev.inserted + ev.updated + mk.inserted + mk.updated,
      recordsRejected: rejected.length,
      rowsByTable: {
        events: ev.inserted,
        markets: mk.inserted,
        event_state_history: eventStates,
        market_state_history: mk.states,
        pricing_snapshots: mk.pricing,
        rejected_records: quarantined,
      },
    };
  }) as Promise<WriteCounts>;
}
