/**
 * Realistic records for the write-path benchmarks: the simulator's world rendered as the server
 * sends it (by default in the 'live' shape, what the upstream sends today) and run through the real
 * parser (zod + normalization + shape fingerprint), so payload sizes and shapes are the pipeline's.
 */
import { parseEvent } from '../../src/api/parse.js';
import type { Event } from '../../src/domain/types.js';
import { type WireShape, World } from '../../src/simulator/index.js';
import type { CopyField } from '../../src/sql/core/copyRows.js';
import type { MarketRow } from '../../src/sql/writes/upsertMarkets.js';

export function worldRecords(markets: number, seed = 1, shape: WireShape = 'live'): { events: Event[]; markets: MarketRow[] } {
  // A bare World defaults to 'spec'; startSimulator (and so the sync) to 'live'.
  const world = new World({ seed, markets, shape });
  const events: Event[] = [];
  const rows: MarketRow[] = [];
  for (const e of world.events()) {
    // A round trip through JSON text, as the client receives it (no shared objects between records).
    const body: unknown = JSON.parse(JSON.stringify(world.eventBody(e.eventId, { includeMarkets: true })));
    const checked = parseEvent(body, { provider: e.provider });
    if (!checked.ok) throw new Error(`simulator event ${e.eventId} failed validation: ${checked.rejection.reason}`);
    events.push(checked.value);
    for (const m of checked.value.markets ?? []) rows.push({ ...m, eventId: e.eventId, provider: e.provider });
  }
  return { events, markets: rows };
}

/**
 * A content change as a later listing would show it: closed, resolved, settled at `atSec`. The live
 * shape says when in `resolveAt` (ISO 8601), the spec's in `settlementTime` (Unix seconds).
 */
export function settledAt(m: MarketRow, atSec: number): MarketRow {
  const result = m.result ?? 'yes';
  const old = m.raw as Record<string, unknown>;
  const when = 'resolveAt' in old ? { resolveAt: new Date(atSec * 1000).toISOString() } : { settlementTime: atSec };
  const raw = { ...old, status: 'closed', result, ...when };
  return { ...m, status: 'closed', result, settlementTimeSec: atSec, raw };
}

/** Columns of prediction.markets in the order marketCopyRows fills them. */
export const MARKET_COLUMNS = [
  'market_id',
  'event_id',
  'provider',
  'title',
  'subtitle',
  'description',
  'rules_primary',
  'rules_secondary',
  'is_tradable',
  'status',
  'result',
  'open_time',
  'close_time',
  'settlement_time',
  'raw',
  'drift',
  'first_seen_at',
  'last_seen_at',
  'changed_at',
];

const time = (sec: number | null): string | null => (sec === null ? null : new Date(sec * 1000).toISOString());
const textArray = (xs: readonly string[]): string => `{${xs.map((x) => `"${x.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/** The stored row of each market, as COPY text fields: what upsertMarkets would store at `at` for a new market. */
export function* marketCopyRows(markets: readonly MarketRow[], at: Date): Generator<CopyField[]> {
  const seen = at.toISOString();
  for (const m of markets) {
    // Stored raw leaves out pricing, as upsertMarkets does.
    const { pricing: _pricing, ...raw } = m.raw as Record<string, unknown>;
    yield [
      m.marketId,
      m.eventId,
      m.provider,
      m.title,
      m.subtitle,
      m.description,
      m.rulesPrimary,
      m.rulesSecondary,
      m.isTradable === null ? null : String(m.isTradable),
      m.status,
      m.result,
      time(m.openTimeSec),
      time(m.closeTimeSec),
      time(m.settlementTimeSec),
      JSON.stringify(raw),
      textArray(m.drift),
      seen,
      seen,
      seen,
    ];
  }
}
