/**
 * Events of the kinds the service's OpenAPI of 2026-07-05 describes and the default world does not
 * make (see docs/upstream/live-service.md, addendum): 5-minute "up or down" events with a suffixed
 * market id (`POLY-2794564-0`) quoting one side, sports events of `gx` markets with a `liveScore`
 * and a `draw` result, `bisonfi` events of one market per side, and events in the categories the
 * service added (finance, climate & science, weather, mentions). They are created only on request
 * (a World mutator, or WorldOptions.upDownEverySec), so the default world stays as it was.
 *
 * What makes a record one of these is kept here, beside the world's records rather than in them:
 * the renderers ask `flavorOf` and add the fields of its kind.
 */
import { lifecycleCloseAt, registerEvent } from './registerEvent.js';
import type { SimEvent, SimEventCategory, SimMarket } from './simTypes.js';
import type { WorldState } from './worldState.js';

/** The categories the service's OpenAPI of 2026-07-05 added to the documented eight. */
export const ADDED_CATEGORIES = ['finance', 'climate & science', 'weather', 'mentions'] as const;
export type AddedCategory = (typeof ADDED_CATEGORIES)[number];

export type MarketFlavor =
  | { kind: 'upDown' }
  | { kind: 'gx'; gxMarketId: string; gxEventId: string; betType: number; marketCode: string; sportsLine: string | null; draw: boolean }
  | { kind: 'bisonfi'; side: 'up' | 'down'; marketPda: string };

export interface EventFlavor {
  /** A gx sports event: its teams, and the score it ends on. */
  liveScore?: { gameId: string; homeTeam: string; awayTeam: string; finalScore: string };
}

const marketFlavors = new WeakMap<SimMarket, MarketFlavor>();
const eventFlavors = new WeakMap<SimEvent, EventFlavor>();

export const flavorOf = (m: SimMarket): MarketFlavor | undefined => marketFlavors.get(m);
export const eventFlavorOf = (e: SimEvent): EventFlavor | undefined => eventFlavors.get(e);

/** Seconds from an up-or-down market's close to its settlement: they resolve within a minute. */
export const UP_DOWN_SETTLE_SEC = 40;

/**
 * A 5-minute (by default) "Bitcoin Up or Down" event starting now: one market, id suffixed `-0`,
 * outcomes Up and Down, quoting the Up side only, settled UP_DOWN_SETTLE_SEC after its close.
 */
export function addUpDownEvent(state: WorldState, durationSec = 300): SimEvent {
  const eventId = state.ids.polymarketEvent();
  const start = new Date(state.nowSec * 1000).toISOString().slice(11, 16);
  const end = new Date((state.nowSec + durationSec) * 1000).toISOString().slice(11, 16);
  const title = `Bitcoin Up or Down - ${new Date(state.nowSec * 1000).toISOString().slice(0, 10)}, ${start}-${end} UTC`;
  const up = (state.nowSec + eventId.length) % 2 === 0 ? 'yes' : 'no';
  const event = registerEvent(
    state,
    { eventId, provider: 'polymarket', category: 'crypto', subcategory: 'btc', title, series: 'polymarket', durationSec },
    [{ marketId: `${eventId}-0`, title, outcome: up, bidCents: 48, askCents: 52 }],
  );
  const market = state.marketsById.get(`${eventId}-0`)!;
  marketFlavors.set(market, { kind: 'upDown' });
  state.queue.push({ atSec: lifecycleCloseAt(market) + UP_DOWN_SETTLE_SEC, kind: 'settle', id: market.marketId });
  return event;
}

/**
 * A soccer event of two gx markets (a 1X2 "Draw" market and an over/under), with a live score.
 * `draw`: the game ends level, and the Draw market settles with result `draw`.
 */
export function addGxEvent(state: WorldState, options: { draw: boolean; durationSec?: number }): SimEvent {
  const eventId = state.ids.polymarketEvent();
  const gxEventId = String(88_000_000 + Number(eventId.slice(5)));
  const [drawId, totalsId] = [state.ids.polymarketMarket(), state.ids.polymarketMarket()];
  const title = `FC ${eventId.slice(-3)} vs. SC ${eventId.slice(-2)}`;
  const event = registerEvent(
    state,
    {
      eventId,
      provider: 'polymarket',
      category: 'sports',
      subcategory: 'soccer',
      title,
      series: 'polymarket',
      durationSec: options.durationSec ?? 7200,
    },
    [
      { marketId: drawId, title: `${title}: Draw`, outcome: options.draw ? 'yes' : 'no', bidCents: 27, askCents: 29 },
      { marketId: totalsId, title: `${title}: over 2.5 goals`, outcome: options.draw ? 'no' : 'yes', bidCents: 55, askCents: 57 },
    ],
  );
  const gx = (marketId: string, betType: number, marketCode: string, sportsLine: string | null, draw: boolean): MarketFlavor => ({
    kind: 'gx',
    gxMarketId: String(331_000_000 + Number(marketId.slice(5))),
    gxEventId,
    betType,
    marketCode,
    sportsLine,
    draw,
  });
  marketFlavors.set(state.marketsById.get(drawId)!, gx(drawId, 5, '1X2', null, options.draw));
  marketFlavors.set(state.marketsById.get(totalsId)!, gx(totalsId, 3, 'OU', '2.5', false));
  eventFlavors.set(event, {
    liveScore: {
      gameId: gxEventId,
      homeTeam: `FC ${eventId.slice(-3)}`,
      awayTeam: `SC ${eventId.slice(-2)}`,
      finalScore: options.draw ? '1-1' : '3-1',
    },
  });
  return event;
}

/** A bisonfi forecast event: one market per side (Up, Down) of one on-chain market. */
export function addBisonfiEvent(state: WorldState, durationSec = 3600): SimEvent {
  const n = state.ids.polymarketEvent().slice(5);
  const eventId = `BISONFI-${n}`;
  const title = `SOL above $200 at ${new Date((state.nowSec + durationSec) * 1000).toISOString().slice(0, 16)}Z?`;
  const upWins = Number(n) % 2 === 0;
  const event = registerEvent(
    state,
    { eventId, provider: 'bisonfi', category: 'crypto', subcategory: 'sol', title, series: 'bisonfi', durationSec },
    [
      { marketId: `${eventId}-UP`, title: `${title} Up`, outcome: upWins ? 'yes' : 'no', bidCents: 61, askCents: 63 },
      { marketId: `${eventId}-DOWN`, title: `${title} Down`, outcome: upWins ? 'no' : 'yes', bidCents: 37, askCents: 39 },
    ],
  );
  const marketPda = `Pda${n}${'x'.repeat(Math.max(0, 40 - n.length))}`;
  marketFlavors.set(state.marketsById.get(`${eventId}-UP`)!, { kind: 'bisonfi', side: 'up', marketPda });
  marketFlavors.set(state.marketsById.get(`${eventId}-DOWN`)!, { kind: 'bisonfi', side: 'down', marketPda });
  return event;
}

/** A binary event in one of the categories the service added. */
export function addCategoryEvent(state: WorldState, category: AddedCategory, durationSec = 14 * 86_400): SimEvent {
  const eventId = state.ids.polymarketEvent();
  const titles: Record<AddedCategory, string> = {
    finance: 'S&P 500 closes the month higher?',
    'climate & science': 'Will this month be the warmest on record?',
    weather: 'Rain in London on the last day of the month?',
    mentions: 'Will the press secretary say "tariff" this week?',
  };
  return registerEvent(
    state,
    {
      eventId,
      provider: 'polymarket',
      category: category as SimEventCategory,
      subcategory: '',
      title: titles[category],
      series: 'polymarket',
      durationSec,
    },
    [{ marketId: state.ids.polymarketMarket(), title: titles[category], outcome: 'no', bidCents: 30, askCents: 33 }],
  );
}
