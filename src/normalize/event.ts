import type { EventWire } from '../wire/event.js';
import { KNOWN_PROVIDERS, type DriftTag, type Event, type Market, type Rejection } from '../domain/types.js';
import { toDecimal } from './decimal.js';
import { DRIFT } from './driftTags.js';
import { isAbsent } from './isAbsent.js';
import { nestedOrTopLevel } from './nestedOrTopLevel.js';

export interface EventContext {
  /** The provider the request asked for; the wire's own `provider`, when sent, wins. */
  provider: string | null;
  /** The event as received, without its `markets` array. */
  raw: unknown;
  /** The embedded markets that passed validation, or null when the response had none. */
  markets: Market[] | null;
  rejectedMarkets: Rejection[];
}

const KNOWN: ReadonlySet<string> = new Set(KNOWN_PROVIDERS);

export function normalizeEvent(wire: EventWire, ctx: EventContext): Event {
  const drift: DriftTag[] = [];

  // Removed by later versions of the service: kept as null, visibly.
  if (isAbsent(wire.series)) drift.push(DRIFT.missingSeries);
  if (isAbsent(wire.winner)) drift.push(DRIFT.missingWinner);
  if (isAbsent(wire.tvlDollars)) drift.push(DRIFT.missingTvl);
  else if (typeof wire.tvlDollars === 'number') drift.push(DRIFT.tvlAsNumber);

  if (typeof wire.volumeUsd === 'number') drift.push(DRIFT.volumeAsNumber);
  // Validated: a comma can only be a thousands separator.
  else if (wire.volumeUsd.includes(',')) drift.push(DRIFT.volumeFormatted);

  if (typeof wire.beginAt === 'number') drift.push(DRIFT.beginAtAsNumber);
  const beginAtSec = wire.beginAt === null ? null : Number(wire.beginAt);

  const provider = wire.provider ?? ctx.provider;
  if (!isAbsent(wire.provider) && !KNOWN.has(wire.provider)) drift.push(DRIFT.providerUnknown);

  if (wire.markets === null) drift.push(DRIFT.marketsNull);

  const meta = wire.metadata ?? undefined;
  const fields = nestedOrTopLevel();
  const title = fields.pick(meta?.title, wire.title);
  const subtitle = fields.pick(meta?.subtitle, wire.subtitle);
  const imageUrl = fields.pick(meta?.imageUrl, wire.imageUrl);
  if (fields.usedTopLevel) drift.push(DRIFT.flattenedEvent);

  return {
    eventId: wire.eventId,
    provider,
    series: wire.series ?? null,
    category: wire.category,
    subcategory: wire.subcategory,
    title,
    subtitle,
    imageUrl,
    closeCondition: wire.closeCondition,
    rulesPdf: wire.rulesPdf,
    multipleWinners: wire.multipleWinners,
    isActive: wire.isActive,
    isLive: wire.isLive,
    isTrending: wire.isTrending ?? null,
    isRecommended: wire.isRecommended ?? null,
    // "" is the spec's "unresolved".
    winner: isAbsent(wire.winner) || wire.winner === '' ? null : wire.winner,
    beginAtSec,
    tvlUsd: isAbsent(wire.tvlDollars) ? null : toDecimal(wire.tvlDollars),
    volumeUsd: toDecimal(wire.volumeUsd),
    markets: ctx.markets,
    rejectedMarkets: ctx.rejectedMarkets,
    drift,
    raw: ctx.raw,
  };
}
