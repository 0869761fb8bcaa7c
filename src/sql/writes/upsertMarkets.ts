import type { Market } from '../../domain/types.js';
import { markets as marketsTable } from '../../schema/index.js';
import { changeOnlyUpsert, type UpsertColumn, type UpsertCounts } from '../core/changeOnlyUpsert.js';
import { jsonText, type Queryable } from '../core/queryable.js';

/** A market with the context its wire record lacks. */
export interface MarketRow extends Market {
  eventId: string;
  provider: string;
}

type Column = UpsertColumn<typeof marketsTable, MarketRow>;
const text = (column: Column['column'], value: (m: MarketRow) => string | null) => ({ column, bindAs: 'text', value }) as const;
const time = (column: Column['column'], value: (m: MarketRow) => number | null) =>
  ({ column, bindAs: 'float8', convert: 'to_timestamp({})', value }) as const;

const KEY: Column = text('marketId', (m) => m.marketId);

/**
 * Every stored field of a market; its hash recognises an unchanged one (see changeOnlyUpsert).
 * Metadata fields keep their stored value when a record omits them (listings may embed markets
 * without metadata, the market's detail has it). The stored `raw` leaves out `pricing`: prices have
 * their own history in pricing_snapshots, and keeping them here would rewrite the market row on
 * every price tick. detailFetchedAt is not among them: markDetailFetched moves it.
 */
const COLUMNS: readonly Column[] = [
  text('eventId', (m) => m.eventId),
  text('provider', (m) => m.provider),
  { ...text('title', (m) => m.title), keepStoredWhenNull: true },
  { ...text('subtitle', (m) => m.subtitle), keepStoredWhenNull: true },
  { ...text('description', (m) => m.description), keepStoredWhenNull: true },
  { ...text('rulesPrimary', (m) => m.rulesPrimary), keepStoredWhenNull: true },
  { ...text('rulesSecondary', (m) => m.rulesSecondary), keepStoredWhenNull: true },
  { column: 'isTradable', bindAs: 'boolean', value: (m) => m.isTradable, keepStoredWhenNull: true },
  text('status', (m) => m.status),
  text('result', (m) => m.result),
  time('openTime', (m) => m.openTimeSec),
  time('closeTime', (m) => m.closeTimeSec),
  time('settlementTime', (m) => m.settlementTimeSec),
  { ...text('raw', (m) => jsonText(withoutPricing(m.raw))), convert: '{}::jsonb' },
  { ...text('drift', (m) => jsonText(m.drift)), convert: 'array(select jsonb_array_elements_text({}::jsonb))' },
];

/** Change-only upsert of markets into prediction.markets (see changeOnlyUpsert and COLUMNS). */
export function upsertMarkets(sql: Queryable, markets: readonly MarketRow[], observedAt: Date): Promise<UpsertCounts> {
  return changeOnlyUpsert(sql, marketsTable, KEY, COLUMNS, markets, observedAt);
}

function withoutPricing(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !('pricing' in raw)) return raw;
  const { pricing: _pricing, ...rest } = raw as Record<string, unknown>;
  return rest;
}
