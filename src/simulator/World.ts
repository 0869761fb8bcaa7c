/**
 * The simulated upstream's data: a seeded world of events and markets on a simulated clock.
 * Read accessors return the live records (treat them as read-only) or fresh wire JSON; mutators
 * let tests force transitions without waiting for the clock.
 */
import type { LiveTrade } from '../wire/liveShapes.js';
import type { SpecMarket, SpecOrderBook } from '../wire/specShapes.js';
import { renderLiveTrade } from './shapes/liveTrade.js';
import { type EventBody, eventBody, type MarketBody, marketBody, type OrderBookBody, orderBookBody } from './shapes/renderBodies.js';
import { Activity, type ActivityOptions } from './world/activity.js';
import { closedSince, countByCategory, type SimCategoryCount } from './world/closedFeed.js';
import { createEvent, type NewEventOptions } from './world/createEvent.js';
import { searchEvents, suggestEvents } from './world/discovery.js';
import { bringClosesForward, type EarlyCloses } from './world/earlyCloses.js';
import { assignOutcome, closeMarket, delistEvent, settleMarket } from './world/lifecycle.js';
import { type EventQuery, ListingCache } from './world/listing.js';
import { addBisonfiEvent, addCategoryEvent, type AddedCategory, addGxEvent, addUpDownEvent } from './world/liveExtras.js';
import { renderOrderBook } from './world/orderBook.js';
import { populate, randomCategory, randomProvider } from './world/populate.js';
import { servedSec, simSecOfServed } from './world/servedTime.js';
import type { Outcome, SimEvent, SimMarket, SimProvider } from './world/simTypes.js';
import { step, type StepReport } from './world/step.js';
import { trade } from './world/trade.js';
import { UNDOCUMENTED_CATEGORY_SHARE } from './world/undocumentedCatalog.js';
import { renderEvent, renderMarket, type SpecEraEvent } from './world/wire.js';
import { followsLiveService, validateWireShape, type WireShape } from './world/wireShape.js';
import { newWorldState, requireEvent, requireMarket, type WorldState } from './world/worldState.js';

/** 2026-01-01T00:00:00Z: the default simulated "now" at creation. */
export const DEFAULT_START_SEC = 1_767_225_600;

export interface WorldOptions {
  /** PRNG seed: the same seed and the same calls give the same world. Default 1. */
  seed?: number;
  /** Markets generated up front (exact; >= 14 covers every provider x category). Default 200. */
  markets?: number;
  /** The simulated "now" at creation, Unix seconds. Default DEFAULT_START_SEC (2026-01-01). */
  startSec?: number;
  /** Average trades per open market per simulated hour. Default 0.2 (a 1 h step moves ~20% of markets). */
  tradesPerMarketHour?: number;
  /** New events per simulated day. Default 5% of the initial event count, at least 1. */
  newEventsPerDay?: number;
  /** Delay between a market's close and its settlement, seconds [min, max]. Default [600, 21600]. */
  settlementLagSec?: readonly [number, number];
  /**
   * Shape profile of the bodies (`eventBody`, `marketBody`, `orderBookBody`); any profile but
   * 'spec' also gives ~7% of events a category outside the spec's list, as the live service has.
   * Default 'spec' for a bare World, so its spec renderings stay as they were (startSimulator's
   * default is 'live').
   */
  shape?: WireShape;
  /**
   * A new 5-minute "up or down" event every this many simulated seconds (world/liveExtras.ts), as
   * the live service runs them all day; each opens and ends within its 5 minutes. Default 0: none.
   */
  upDownEverySec?: number;
  /**
   * Heavy-tailed activity (world/activity.ts): Zipf change rates over the open markets, trades and
   * deeper-level changes, volume following the rates, and a record of every true state (`truth`).
   * Absent (the default): the uniform trades of `tradesPerMarketHour`.
   */
  activity?: ActivityOptions;
  /**
   * Simulated seconds per real second when the world is run against the wall clock (the
   * simulator's realtime clock at a speed-up): the instants it serves are then the real ones at
   * which it reaches them, from `startSec` on (world/servedTime.ts). Default 1: served as simulated.
   */
  servedSpeed?: number;
  /**
   * Brings the close of `events` open events (every market of each) forward to instants spread
   * evenly over the first `withinSec` simulated seconds, in a random order of its own stream, so
   * that a short run sees markets close, settle and events resolve (`npm run demo`). Default: none.
   */
  earlyCloses?: EarlyCloses;
}

export type AddEventOptions = Partial<Omit<NewEventOptions, 'createdAtSec' | 'maxMarkets'>>;

export class World {
  private readonly state: WorldState;
  private readonly listings: ListingCache;
  private readonly upDownEverySec: number;
  private nextUpDownSec: number;

  constructor(options: WorldOptions = {}) {
    const markets = options.markets ?? 200;
    if (!Number.isSafeInteger(markets) || markets < 1) throw new RangeError(`markets must be a positive integer, got ${markets}`);
    const shape = validateWireShape('shape', options.shape ?? 'spec');
    const servedSpeed = options.servedSpeed ?? 1;
    if (!(servedSpeed > 0) || !Number.isFinite(servedSpeed))
      throw new RangeError(`servedSpeed must be a positive number, got ${servedSpeed}`);
    this.state = newWorldState(
      options.seed ?? 1,
      shape,
      options.startSec ?? DEFAULT_START_SEC,
      {
        tradesPerMarketHour: options.tradesPerMarketHour ?? 0.2,
        newEventsPerDay: 0, // set below, once the initial size is known
        settlementLagSec: options.settlementLagSec ?? [600, 21_600],
        undocumentedCategoryShare: followsLiveService(shape) ? UNDOCUMENTED_CATEGORY_SHARE : 0,
      },
      servedSpeed,
    );
    populate(this.state, markets);
    if (options.earlyCloses) bringClosesForward(this.state, options.earlyCloses);
    const perDay = options.newEventsPerDay ?? Math.max(1, this.state.events.length * 0.05);
    this.state.settings.newEventsPerDay = perDay;
    this.listings = new ListingCache(this.state);
    const every = options.upDownEverySec ?? 0;
    if (!Number.isSafeInteger(every) || every < 0) throw new RangeError(`upDownEverySec must be a non-negative integer, got ${every}`);
    this.upDownEverySec = every;
    this.nextUpDownSec = this.state.nowSec + every;
    if (options.activity) {
      this.activity = new Activity(this.state, options.activity, (m) => orderBookBody(this.state, m));
      this.state.activity = this.activity;
    }
  }

  /** The world's heavy-tailed activity and its record of true states; undefined in a default world. */
  readonly activity: Activity | undefined;

  get seed(): number {
    return this.state.seed;
  }
  get shape(): WireShape {
    return this.state.shape;
  }
  /** Simulated now, Unix seconds. */
  get nowSec(): number {
    return this.state.nowSec;
  }
  /** The Unix seconds the server sends for simulated instant `simSec` (world/servedTime.ts). */
  servedSec(simSec: number): number {
    return servedSec(this.state, simSec);
  }
  /** The simulated instant of served Unix seconds `sec` (a time a client sends), rounded down. */
  simSecOfServed(sec: number): number {
    return simSecOfServed(this.state, sec);
  }
  /** Changes on every mutation; equal versions mean identical data. */
  get version(): number {
    return this.state.version;
  }

  /** Advances simulated time by whole seconds, firing closes, settlements, new events and trades. */
  step(seconds: number): StepReport {
    if (this.upDownEverySec === 0) return step(this.state, seconds);
    // Stepped up to each start of an up-or-down event, which then opens at its own instant.
    const toSec = this.state.nowSec + seconds;
    const reports: StepReport[] = [];
    while (this.nextUpDownSec <= toSec) {
      reports.push(step(this.state, this.nextUpDownSec - this.state.nowSec));
      const added = addUpDownEvent(this.state);
      reports.at(-1)!.addedEventIds.push(added.eventId);
      this.nextUpDownSec += this.upDownEverySec;
    }
    reports.push(step(this.state, toSec - this.state.nowSec));
    return mergeReports(reports);
  }

  // ---- reads ----
  /** Every event ever created (listed or not), in creation order. */
  events(): readonly Readonly<SimEvent>[] {
    return this.state.events;
  }
  markets(): Readonly<SimMarket>[] {
    return [...this.state.marketsById.values()];
  }
  event(eventId: string): Readonly<SimEvent> | undefined {
    return this.state.eventsById.get(eventId);
  }
  market(marketId: string): Readonly<SimMarket> | undefined {
    return this.state.marketsById.get(marketId);
  }
  marketsOf(eventId: string): Readonly<SimMarket>[] {
    return requireEvent(this.state, eventId).marketIds.map((id) => this.state.marketsById.get(id)!);
  }
  /** Exactly what GET /events pages through for this query (active events only). */
  listEvents(query: EventQuery): readonly Readonly<SimEvent>[] {
    return this.listings.list(query);
  }
  /** What GET /events/closed pages through: events with a market closed or settled after `sinceSec`. */
  closedEvents(provider: SimProvider, sinceSec: number): readonly Readonly<SimEvent>[] {
    return closedSince(this.state, provider, sinceSec);
  }
  /** GET /events/categories: the listed events' counts, or every event's with `includeClosed`. */
  categoryCounts(provider: SimProvider, includeClosed: boolean): SimCategoryCount[] {
    const events = includeClosed
      ? this.state.events.filter((e) => e.provider === provider)
      : this.listEvents({ provider, category: 'all' });
    return countByCategory(events);
  }
  searchEvents(provider: SimProvider, query: string, limit: number): Readonly<SimEvent>[] {
    return searchEvents(this.listings, provider, query, limit);
  }
  suggestedEvents(provider: SimProvider, pubkey: string): Readonly<SimEvent>[] {
    return suggestEvents(this.listings, this.state.seed, provider, pubkey);
  }
  /** Clean spec-shaped wire JSON (no faults) whatever the profile, or undefined for an unknown id. */
  eventJson(eventId: string, opts: { includeMarkets?: boolean; isRecommended?: boolean } = {}): SpecEraEvent | undefined {
    const e = this.state.eventsById.get(eventId);
    return e && renderEvent(this.state, e, { includeMarkets: opts.includeMarkets ?? false, isRecommended: opts.isRecommended ?? false });
  }
  marketJson(marketId: string): SpecMarket | undefined {
    const m = this.state.marketsById.get(marketId);
    return m && renderMarket(this.state, m);
  }
  /** The book, null when the market has none, undefined for an unknown id. */
  orderBookJson(marketId: string): SpecOrderBook | null | undefined {
    const m = this.state.marketsById.get(marketId);
    return m && renderOrderBook(this.state, m);
  }
  /** The body the server sends for the event in the world's shape profile, before faults. */
  eventBody(eventId: string, opts: { includeMarkets?: boolean; isRecommended?: boolean } = {}): EventBody | undefined {
    const e = this.state.eventsById.get(eventId);
    return e && eventBody(this.state, e, { includeMarkets: opts.includeMarkets ?? false, isRecommended: opts.isRecommended ?? false });
  }
  /** `detail`: as GET /markets/{id} sends it (default), else as listed or embedded. */
  marketBody(marketId: string, opts: { detail?: boolean } = {}): MarketBody | undefined {
    const m = this.state.marketsById.get(marketId);
    return m && marketBody(this.state, m, { detail: opts.detail ?? true });
  }
  orderBookBody(marketId: string): OrderBookBody | null | undefined {
    const m = this.state.marketsById.get(marketId);
    return m && orderBookBody(this.state, m);
  }
  /** The trade feed's answer: the latest `limit` fills, newest first, in the live shape. */
  recentTrades(limit: number): LiveTrade[] {
    const fills = this.state.fills;
    return fills
      .slice(Math.max(0, fills.length - limit))
      .reverse()
      .map((fill) => renderLiveTrade(this.state, fill));
  }
  stats(): { events: number; activeEvents: number; markets: number; openMarkets: number } {
    const s = this.state;
    return {
      events: s.events.length,
      activeEvents: s.events.filter((e) => e.isActive).length,
      markets: s.marketsById.size,
      openMarkets: s.openMarkets.length,
    };
  }

  // ---- mutators (for tests) ----
  /**
   * A burst: `count` trades at once on random open markets, at the current simulated time (more
   * than the trade feed holds makes a gap that no poll can close).
   */
  burstTrades(count: number): void {
    if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
    const open = this.state.openMarkets;
    if (open.length === 0) return;
    for (let i = 0; i < count; i++) trade(this.state, open[Math.floor(this.state.fillRng.next() * open.length)]!);
    this.state.version++;
  }
  closeMarket(marketId: string): void {
    closeMarket(this.state, requireMarket(this.state, marketId));
  }
  /** Settles now with `result`; resolves the event when it was its last unsettled market. */
  resolveMarket(marketId: string, result: Outcome): void {
    const m = requireMarket(this.state, marketId);
    if (m.result !== null) throw new RangeError(`market ${marketId} is already settled (${m.result})`);
    assignOutcome(this.state, m, result);
    settleMarket(this.state, m, result);
  }
  /** Resolves every unsettled market of the event, `winnerMarketId` yes and the others no. */
  resolveEvent(eventId: string, winnerMarketId: string): void {
    const e = requireEvent(this.state, eventId);
    if (!e.marketIds.includes(winnerMarketId)) throw new RangeError(`${winnerMarketId} is not a market of ${eventId}`);
    for (const id of e.marketIds) {
      const m = this.state.marketsById.get(id)!;
      if (m.result === null) settleMarket(this.state, m, id === winnerMarketId ? 'yes' : 'no');
    }
  }
  delistEvent(eventId: string): void {
    delistEvent(this.state, requireEvent(this.state, eventId));
  }
  /** Sets the YES ask (buy) and bid (sell), micro-USD on whole cents (multiples of 10,000). */
  setPrice(marketId: string, prices: { buyYesPriceUsd: number; sellYesPriceUsd: number }): void {
    const m = requireMarket(this.state, marketId);
    const { buyYesPriceUsd: ask, sellYesPriceUsd: bid } = prices;
    const ok = [ask, bid].every((p) => Number.isSafeInteger(p) && p % 10_000 === 0) && 0 <= bid && bid <= ask && ask <= 1_000_000;
    if (!ok) throw new RangeError(`setPrice needs whole-cent micro-USD with 0 <= sell <= buy <= 1e6, got ${JSON.stringify(prices)}`);
    m.askMicroUsd = ask;
    m.bidMicroUsd = bid;
    this.touch(m);
  }
  /** Sets the market's pricing.volume (spec: a number with at most 2 decimals; other shapes: its whole dollars). */
  setVolume(marketId: string, volume: number): void {
    const m = requireMarket(this.state, marketId);
    m.volumeCenti = Math.round(volume * 100);
    m.notionalMicroUsd = Math.round(volume * 1_000_000);
    this.touch(m);
  }
  /** Sets the event's volume (what sortBy=volume ranks), micro-USD. */
  setEventVolume(eventId: string, volumeMicroUsd: number): void {
    requireEvent(this.state, eventId).volumeMicroUsd = volumeMicroUsd;
    this.state.version++;
  }
  setBeginAt(eventId: string, beginAtSec: number | null): void {
    requireEvent(this.state, eventId).beginAtSec = beginAtSec;
    this.state.version++;
  }
  /** Moves an open market's close; it closes when a step reaches that time. */
  setCloseTime(marketId: string, closeTimeSec: number): void {
    const m = requireMarket(this.state, marketId);
    if (m.status !== 'open') throw new RangeError(`market ${marketId} is not open`);
    m.closeTimeSec = closeTimeSec;
    this.state.queue.push({ atSec: closeTimeSec, kind: 'close', id: marketId });
    this.state.version++;
  }
  /** One random trade on an open market (price, volume and book change). */
  trade(marketId: string): void {
    const m = requireMarket(this.state, marketId);
    if (m.status !== 'open') throw new RangeError(`market ${marketId} is not open`);
    trade(this.state, m);
    this.state.version++;
  }
  /** A 5-minute (or `durationSec`) "Bitcoin Up or Down" event from now: one market, id suffixed `-0`, quoting one side. */
  addUpDownEvent(durationSec = 300): string {
    return addUpDownEvent(this.state, durationSec).eventId;
  }
  /** A soccer event of two gx markets with a live score; with `draw`, its Draw market settles with result `draw`. */
  addGxEvent(options: { draw: boolean; durationSec?: number }): string {
    return addGxEvent(this.state, options).eventId;
  }
  /** A bisonfi forecast event: one market per side. */
  addBisonfiEvent(durationSec = 3600): string {
    return addBisonfiEvent(this.state, durationSec).eventId;
  }
  /** A binary event in a category the service added (finance, climate & science, weather, mentions). */
  addCategoryEvent(category: AddedCategory, durationSec?: number): string {
    return addCategoryEvent(this.state, category, durationSec).eventId;
  }
  /** Creates an event now; random provider/category unless given. Returns its id. */
  addEvent(opts: AddEventOptions = {}): string {
    const provider = opts.provider ?? randomProvider(this.state);
    const category = opts.category ?? randomCategory(this.state);
    return createEvent(this.state, { ...opts, provider, category, createdAtSec: this.state.nowSec }).eventId;
  }

  private touch(m: SimMarket): void {
    m.bookVersion++;
    this.state.version++;
  }
}

function mergeReports(reports: readonly StepReport[]): StepReport {
  const traded = new Set(reports.flatMap((r) => r.tradedMarketIds));
  return {
    fromSec: reports[0]!.fromSec,
    toSec: reports.at(-1)!.toSec,
    closedMarketIds: reports.flatMap((r) => r.closedMarketIds),
    settledMarketIds: reports.flatMap((r) => r.settledMarketIds),
    resolvedEventIds: reports.flatMap((r) => r.resolvedEventIds),
    addedEventIds: reports.flatMap((r) => r.addedEventIds),
    tradedMarketIds: [...traded],
  };
}
