import type { Event } from '../../domain/types.js';
import { events as eventsTable } from '../../schema/index.js';
import { changeOnlyUpsert, type UpsertColumn, type UpsertCounts } from '../core/changeOnlyUpsert.js';
import { jsonText, type Queryable } from '../core/queryable.js';

type Column = UpsertColumn<typeof eventsTable, Event>;
const text = (column: Column['column'], value: (e: Event) => string | null) => ({ column, bindAs: 'text', value }) as const;
const bool = (column: Column['column'], value: (e: Event) => boolean | null) => ({ column, bindAs: 'boolean', value }) as const;

const KEY: Column = text('eventId', (e) => e.eventId);

/** Every stored field of an event; its hash recognises an unchanged one (see changeOnlyUpsert). */
const COLUMNS: readonly Column[] = [
  text('provider', (e) => e.provider ?? 'unknown'),
  text('series', (e) => e.series),
  text('category', (e) => e.category),
  text('subcategory', (e) => e.subcategory),
  text('title', (e) => e.title),
  text('subtitle', (e) => e.subtitle),
  text('imageUrl', (e) => e.imageUrl),
  text('closeCondition', (e) => e.closeCondition),
  text('rulesPdf', (e) => e.rulesPdf),
  bool('multipleWinners', (e) => e.multipleWinners),
  bool('isActive', (e) => e.isActive),
  bool('isLive', (e) => e.isLive),
  bool('isTrending', (e) => e.isTrending),
  bool('isRecommended', (e) => e.isRecommended),
  text('winner', (e) => e.winner),
  { column: 'beginAt', bindAs: 'float8', convert: 'to_timestamp({})', value: (e) => e.beginAtSec },
  { ...text('tvlUsd', (e) => e.tvlUsd), convert: '{}::numeric' },
  { ...text('volumeUsd', (e) => e.volumeUsd), convert: '{}::numeric' },
  { ...text('raw', (e) => jsonText(e.raw)), convert: '{}::jsonb' },
  { ...text('drift', (e) => jsonText(e.drift)), convert: 'array(select jsonb_array_elements_text({}::jsonb))' },
];

/** Change-only upsert of events into prediction.events (see changeOnlyUpsert). */
export function upsertEvents(sql: Queryable, events: readonly Event[], observedAt: Date): Promise<UpsertCounts> {
  return changeOnlyUpsert(sql, eventsTable, KEY, COLUMNS, events, observedAt);
}
