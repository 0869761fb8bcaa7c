import type { Event } from '../domain/types.js';
import { changeOnlyUpsert, type UpsertCounts } from './changeOnlyUpsert.js';
import { jsonText, type Queryable } from './queryable.js';

/** Change-only upsert of events into prediction.events (see changeOnlyUpsert). */
export function upsertEvents(sql: Queryable, events: readonly Event[], observedAt: Date): Promise<UpsertCounts> {
  const text = (column: string, value: (e: Event) => string | null) => ({ column, bindAs: 'text', value }) as const;
  const bool = (column: string, value: (e: Event) => boolean | null) => ({ column, bindAs: 'boolean', value }) as const;
  return changeOnlyUpsert(
    sql,
    'prediction.events',
    text('event_id', (e) => e.eventId),
    [
      text('provider', (e) => e.provider ?? 'unknown'),
      text('series', (e) => e.series),
      text('category', (e) => e.category),
      text('subcategory', (e) => e.subcategory),
      text('title', (e) => e.title),
      text('subtitle', (e) => e.subtitle),
      text('image_url', (e) => e.imageUrl),
      text('close_condition', (e) => e.closeCondition),
      text('rules_pdf', (e) => e.rulesPdf),
      bool('multiple_winners', (e) => e.multipleWinners),
      bool('is_active', (e) => e.isActive),
      bool('is_live', (e) => e.isLive),
      bool('is_trending', (e) => e.isTrending),
      bool('is_recommended', (e) => e.isRecommended),
      text('winner', (e) => e.winner),
      { column: 'begin_at', bindAs: 'float8', convert: 'to_timestamp({})', value: (e) => e.beginAtSec },
      { ...text('tvl_usd', (e) => e.tvlUsd), convert: '{}::numeric' },
      { ...text('volume_usd', (e) => e.volumeUsd), convert: '{}::numeric' },
      { ...text('raw', (e) => jsonText(e.raw)), convert: '{}::jsonb' },
      { ...text('drift', (e) => jsonText(e.drift)), convert: 'array(select jsonb_array_elements_text({}::jsonb))' },
    ],
    events,
    observedAt,
  );
}
