import {
  CATEGORIES,
  type Decimal,
  type DriftTag,
  type Event,
  KNOWN_PROVIDERS,
  type Market,
  type RecordShape,
  type Rejection,
} from '../domain/types.js';
import type { EventWire } from '../wire/event.js';
import { fitsAmount, toDecimal } from './decimal.js';
import { DRIFT, unreadableTag } from './driftTags.js';
import { fieldReader } from './fieldReader.js';
import { nestedOrTopLevel } from './nestedOrTopLevel.js';

export interface EventContext {
  /** The provider the request asked for; the wire's own `provider`, when sent, wins. */
  provider: string | null;
  /** The event as received, without its `markets` array. */
  raw: unknown;
  shape: RecordShape;
  /** The embedded markets that passed validation, or null when the response had none. */
  markets: Market[] | null;
  rejectedMarkets: Rejection[];
}

const KNOWN_PROVIDER_SET: ReadonlySet<string> = new Set(KNOWN_PROVIDERS);
const KNOWN_CATEGORY_SET: ReadonlySet<string> = new Set(CATEGORIES);

export function normalizeEvent(wire: EventWire, ctx: EventContext): Event {
  const drift: DriftTag[] = [];
  const read = fieldReader(drift);
  const meta = read.optional('metadata', wire.metadata);

  // The live service dropped the top-level `series`; its metadata still carries one.
  let series = read.optional('series', wire.series);
  const metaSeries = read.optional('metadata.series', meta?.series);
  if (series === null && metaSeries !== null) {
    series = metaSeries;
    drift.push(DRIFT.seriesFromMetadata);
  } else if (series === null) drift.push(DRIFT.missingSeries);

  const winner = read.optional('winner', wire.winner);
  // A null winner is an unresolved event; only an absent key is the removed field.
  if (wire.winner === undefined) drift.push(DRIFT.missingWinner);

  const tvl = read.optional('tvlDollars', wire.tvlDollars);
  if (wire.tvlDollars === undefined || wire.tvlDollars === null) drift.push(DRIFT.missingTvl);
  else if (typeof tvl === 'number') drift.push(DRIFT.tvlAsNumber);

  const volume = read.optional('volumeUsd', wire.volumeUsd);
  if (wire.volumeUsd === undefined) drift.push(DRIFT.missingVolume);
  else if (typeof volume === 'number') drift.push(DRIFT.volumeAsNumber);
  // Validated: a comma can only be a thousands separator.
  else if (volume !== null && volume.includes(',')) drift.push(DRIFT.volumeFormatted);

  const beginAt = read.optional('beginAt', wire.beginAt);
  if (wire.beginAt === undefined) drift.push(DRIFT.missingBeginAt);
  else if (typeof beginAt === 'number') drift.push(DRIFT.beginAtAsNumber);
  const beginAtSec = beginAt === null ? null : Number(beginAt);
  if (beginAtSec !== null && !Number.isInteger(beginAtSec)) drift.push(DRIFT.beginAtFractional);

  const wireProvider = read.optional('provider', wire.provider);
  if (wireProvider !== null && !KNOWN_PROVIDER_SET.has(wireProvider)) drift.push(DRIFT.providerUnknown);

  const category = read.required('category', wire.category);
  if (category !== null && !KNOWN_CATEGORY_SET.has(category)) drift.push(DRIFT.categoryUnknown);

  if (wire.markets === null) drift.push(DRIFT.marketsNull);

  const fields = nestedOrTopLevel();
  const title = fields.pick(read.optional('metadata.title', meta?.title), read.optional('title', wire.title));
  const subtitle = fields.pick(read.optional('metadata.subtitle', meta?.subtitle), read.optional('subtitle', wire.subtitle));
  const imageUrl = fields.pick(read.optional('metadata.imageUrl', meta?.imageUrl), read.optional('imageUrl', wire.imageUrl));
  if (fields.usedTopLevel) drift.push(DRIFT.flattenedEvent);

  return {
    eventId: wire.eventId,
    provider: wireProvider ?? ctx.provider,
    series,
    category,
    subcategory: read.required('subcategory', wire.subcategory),
    title,
    subtitle,
    imageUrl,
    closeCondition: read.required('closeCondition', wire.closeCondition),
    rulesPdf: read.required('rulesPdf', wire.rulesPdf),
    multipleWinners: read.required('multipleWinners', wire.multipleWinners),
    isActive: read.required('isActive', wire.isActive),
    isLive: read.required('isLive', wire.isLive),
    isTrending: read.required('isTrending', wire.isTrending),
    isRecommended: read.required('isRecommended', wire.isRecommended),
    // "" is the spec's "unresolved".
    winner: winner === '' ? null : winner,
    beginAtSec,
    tvlUsd: storedAmount('tvlDollars', tvl, drift),
    volumeUsd: storedAmount('volumeUsd', volume, drift),
    markets: ctx.markets,
    rejectedMarkets: ctx.rejectedMarkets,
    drift,
    raw: ctx.raw,
    shape: ctx.shape,
  };
}

/**
 * An event's amount as stored: null, tagged unreadable_<field>, beyond the bound of stored amounts
 * (fitsAmount: what the Parquet export can write exactly). The record's raw keeps what was sent.
 */
function storedAmount(field: string, value: number | string | null, drift: DriftTag[]): Decimal | null {
  if (value === null) return null;
  const amount = toDecimal(value);
  if (fitsAmount(amount)) return amount;
  drift.push(unreadableTag(field));
  return null;
}
