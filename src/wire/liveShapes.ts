import { z } from 'zod';

import { centLevelSchema, dollarLevelSchema } from './orderBook.js';
import { idString, label, storableText, text } from './primitives.js';
import { specPricingSchema, specSeconds } from './specShapes.js';

/**
 * What the live service sends today (docs/upstream/live-service.md), exact: every key seen and no
 * other. The tolerant reader takes these as it takes the spec's (specShapes.ts); these say what
 * today's service sends, for what plays or checks it (the simulator and its tests).
 */

/** ISO 8601 in UTC ("2026-07-24T05:14:12.365Z", "2026-07-29T18:00:00Z"). */
const isoUtc = z.iso.datetime();
/** Micro-USD as a string of digits ("26003599000000"). */
const microUsdText = z.string().regex(/^\d+$/);

/**
 * `market.pricing`: the spec's micro-USD prices (all four 0 on a closed market: no quote), but
 * `volume` only in whole dollars.
 */
export const livePricingSchema = specPricingSchema.extend({ volume: z.int().nonnegative() });

/** One of `marketOptions`: a flag, true on the Yes option (the July recordings; the 2026-07-02 OpenAPI types it boolean). */
export const liveMarketOptionSchema = z.strictObject({ label: text, buyYes: z.boolean() });

/**
 * A market, flat since 2026-06-18: no `metadata`, no `settlementTime`. `eventId` only on
 * GET /markets/{id}; `resolveAt` and `marketResultPubkey` (base58) null until resolved.
 */
export const liveMarketSchema = z.strictObject({
  provider: idString,
  marketId: idString,
  eventId: idString.optional(),
  status: z.enum(['open', 'closed']),
  /** `draw` on sports markets (service OpenAPI 2026-07-05). */
  result: z.enum(['yes', 'no', 'draw']).nullable(),
  marketResultPubkey: z
    .string()
    .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    .nullable(),
  title: storableText,
  openTime: specSeconds,
  closeTime: specSeconds,
  isTeamMarket: z.boolean(),
  rulesPrimary: text,
  rulesSecondary: text,
  resolveAt: isoUtc.nullable(),
  pricing: livePricingSchema,
  imageUrl: text.nullable(),
  team: z.null(),
  outcomes: z.tuple([z.literal('Yes'), z.literal('No')]),
  clobTokenIds: z.tuple([z.string().regex(/^\d+$/), z.string().regex(/^\d+$/)]),
  marketOptions: z.array(liveMarketOptionSchema),
  sportsMarketType: label.nullable(),
  sportsLine: z.number().nullable(),
  gameNumber: z.null(),
});

/**
 * A bisonfi ("Forecast") market: one side of an issuer market, with that side's mint and the
 * issuer market's account (service OpenAPI 2026-07-05, BisonfiMarket); no CLOB token ids.
 */
export const liveBisonfiMarketSchema = liveMarketSchema.extend({
  clobTokenIds: z.tuple([]),
  outcomeMint: z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/),
  outcomeTokenProgram: z.string().nullable(),
  marketPda: z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/),
  outcomeSide: z.enum(['up', 'down']),
  sideLabel: z.enum(['Up', 'Down']).optional(),
  tradable: z.boolean(),
  lifecycleStatus: z.enum(['open', 'resolving', 'settled']),
});

/**
 * A gx market (sports from GX/Saba, service OpenAPI 2026-07-05, GXMarket): the upstream's ids, bet
 * type and codes beside today's market; `sportsLine` a string ("228.5"). The fields of a polymarket
 * market it does not declare may be absent.
 */
export const liveGxMarketSchema = liveMarketSchema.extend({
  provider: z.literal('gx'),
  outcomes: z.array(text).optional(),
  clobTokenIds: z.array(z.string()).optional(),
  rulesSecondary: text.optional(),
  gameNumber: z.null().optional(),
  gxMarketId: label.nullable(),
  gxEventId: label.nullable(),
  betType: z.number().nullable(),
  marketCode: label.nullable(),
  marketStatus: label.nullable(),
  isLive: z.boolean().nullable(),
  category: z.number().nullable(),
  showCategory: label.nullable(),
  sort: z.number().nullable(),
  combo: z.number().nullable(),
  sportsLine: label.nullable(),
  providerSportsLine: label.nullable(),
  lineBasis: z.enum(['provider', 'score_snapshot']).nullable(),
});

/** `event.liveScore` of a sports event (service OpenAPI 2026-07-05): the provider's score and clock. */
export const liveScoreSchema = z.strictObject({
  eventId: idString,
  gameId: label,
  leagueAbbreviation: label.nullable(),
  homeTeam: text.nullable(),
  awayTeam: text.nullable(),
  score: label.nullable(),
  period: label.nullable(),
  elapsed: label.nullable(),
  status: label.nullable(),
  live: z.boolean(),
  ended: z.boolean(),
  finishedTimestamp: z.string().nullable(),
  updatedAt: z.string(),
});

/** `event.metadata`: `series` lives here since the top-level one went; `closeTime` is the latest close of its markets. */
export const liveEventMetadataSchema = z.strictObject({
  slug: z.string().regex(/^[a-z0-9-]+$/),
  title: storableText,
  isLive: z.boolean(),
  series: label,
  eventId: idString,
  imageUrl: text,
  subtitle: text,
  closeTime: isoUtc,
});

/**
 * An event: no multipleWinners, series, winner, isTrending, isRecommended or tvlDollars (gone since
 * 2026-03-03); `category` may be outside the spec's list ("climate & science"); `beginAt` a string
 * of Unix seconds that may be fractional ("1784692980.306"), or null. `provider` is on the events
 * of some providers (bisonfi), not on polymarket's.
 */
export const liveEventSchema = z.strictObject({
  eventId: idString,
  provider: idString.optional(),
  isActive: z.boolean(),
  isLive: z.boolean(),
  category: idString,
  subcategory: text,
  tags: z.array(label),
  metadata: liveEventMetadataSchema,
  volumeUsd: microUsdText,
  volume24hr: microUsdText,
  beginAt: z
    .string()
    .regex(/^\d+(?:\.\d{1,3})?$/)
    .nullable(),
  closeCondition: text,
  rulesPdf: z.literal(''),
  markets: z.array(liveMarketSchema).optional(),
  sportsMarketGroups: z.tuple([]),
  liveScore: liveScoreSchema.nullable().optional(),
});

/**
 * GET /orderbook/{id}: bids on both sides, ascending and not merged; the cent arrays round each
 * price to whole cents, the dollar arrays keep it exact, same sizes in the same order.
 */
export const liveOrderBookSchema = z.strictObject({
  yes: z.array(centLevelSchema),
  no: z.array(centLevelSchema),
  yes_dollars: z.array(dollarLevelSchema),
  no_dollars: z.array(dollarLevelSchema),
});

/**
 * A row of GET /trades, as the service's OpenAPI of 2026-07-05 types it (schema `Trades`) and the
 * July poll saw it: micro-USD amounts as strings, Unix seconds, the titles beside the ids.
 */
export const liveTradeSchema = z.strictObject({
  id: idString,
  ownerPubkey: storableText,
  marketId: idString,
  eventId: idString,
  message: text,
  timestamp: z.number(),
  action: z.enum(['buy', 'sell']),
  side: z.enum(['yes', 'no']),
  eventTitle: text,
  marketTitle: text,
  amountUsd: microUsdText,
  priceUsd: microUsdText,
  eventImageUrl: text,
  isTeamMarket: z.boolean(),
  marketOptions: z.array(liveMarketOptionSchema).nullable(),
});

export type LivePricing = z.output<typeof livePricingSchema>;
export type LiveMarketOption = z.output<typeof liveMarketOptionSchema>;
export type LiveMarket = z.output<typeof liveMarketSchema>;
export type LiveBisonfiMarket = z.output<typeof liveBisonfiMarketSchema>;
export type LiveGxMarket = z.output<typeof liveGxMarketSchema>;
export type LiveEventMetadata = z.output<typeof liveEventMetadataSchema>;
export type LiveEvent = z.output<typeof liveEventSchema>;
export type LiveOrderBook = z.output<typeof liveOrderBookSchema>;
export type LiveTrade = z.output<typeof liveTradeSchema>;
