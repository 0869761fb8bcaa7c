import type { Market } from '../domain/types.js';
import { changeOnlyUpsert, type UpsertCounts } from './changeOnlyUpsert.js';
import { jsonText, type Queryable } from './queryable.js';

/** A market with the context its wire record lacks. */
export interface MarketRow extends Market {
  eventId: string;
  provider: string;
}

/**
 * Change-only upsert of markets into prediction.markets (see changeOnlyUpsert). Metadata fields
 * keep their stored value when a record omits them (listings may embed markets without metadata,
 * the market's detail has it). The stored `raw`
 * leaves out `pricing`: prices have their own history in pricing_snapshots, and keeping them here
 * would rewrite the market row on every price tick.
 */
export function upsertMarkets(sql: Queryable, markets: readonly MarketRow[], observedAt: Date): Promise<UpsertCounts> {
  const text = (column: string, value: (m: MarketRow) => string | null) => ({ column, bindAs: 'text', value }) as const;
  const time = (column: string, value: (m: MarketRow) => number | null) =>
    ({ column, bindAs: 'float8', convert: 'to_timestamp({})', value }) as const;
  return changeOnlyUpsert(
    sql,
    'prediction.markets',
    text('market_id', (m) => m.marketId),
    [
      text('event_id', (m) => m.eventId),
      text('provider', (m) => m.provider),
      { ...text('title', (m) => m.title), keepStoredWhenNull: true },
      { ...text('subtitle', (m) => m.subtitle), keepStoredWhenNull: true },
      { ...text('description', (m) => m.description), keepStoredWhenNull: true },
      { ...text('rules_primary', (m) => m.rulesPrimary), keepStoredWhenNull: true },
      { ...text('rules_secondary', (m) => m.rulesSecondary), keepStoredWhenNull: true },
      { column: 'is_tradable', bindAs: 'boolean', value: (m) => m.isTradable, keepStoredWhenNull: true },
      text('status', (m) => m.status),
      text('result', (m) => m.result),
      time('open_time', (m) => m.openTimeSec),
      time('close_time', (m) => m.closeTimeSec),
      time('settlement_time', (m) => m.settlementTimeSec),
      { ...text('raw', (m) => jsonText(withoutPricing(m.raw))), convert: '{}::jsonb' },
      { ...text('drift', (m) => jsonText(m.drift)), convert: 'array(select jsonb_array_elements_text({}::jsonb))' },
    ],
    markets,
    observedAt,
  );
}

function withoutPricing(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !('pricing' in raw)) return raw;
  const { pricing: _pricing, ...rest } = raw as Record<string, unknown>;
  return rest;
}
