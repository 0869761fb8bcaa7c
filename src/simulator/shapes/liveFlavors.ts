/**
 * The fields the service's OpenAPI of 2026-07-05 gives the kinds of records world/liveExtras.ts
 * makes, added to today's flat market and event: gx markets (`GXMarket`), bisonfi markets
 * (`BisonfiMarket`), one-sided up-or-down markets, and an event's `liveScore`.
 */
import { eventFlavorOf, flavorOf } from '../world/liveExtras.js';
import { unitHash } from '../world/prng.js';
import { servedSec } from '../world/servedTime.js';
import type { SimEvent, SimMarket } from '../world/simTypes.js';
import type { WorldState } from '../world/worldState.js';

type Body = Record<string, unknown> & { pricing: Record<string, number> };

/** A base58-looking key, stable per seed and name. */
function base58(seed: number, kind: string, name: string): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let out = '';
  for (let i = 0; i < 44; i += 1) out += alphabet[Math.floor(unitHash(seed, `${kind}-${i}`, name) * alphabet.length)];
  return out;
}

/** `body` (today's market) with the fields of the market's kind; unchanged for a market of none. */
export function flavorMarket<T extends object>(state: WorldState, m: SimMarket, body: T): T {
  const flavor = flavorOf(m);
  if (!flavor) return body;
  const b = { ...(body as unknown as Body) };
  switch (flavor.kind) {
    case 'upDown':
      b.outcomes = ['Up', 'Down'];
      b.marketOptions = [{ label: 'Up', buyYes: true }];
      // One side quoted: no NO bid and no NO ask (as POLY-2794564-0).
      if (m.status === 'open') b.pricing = { ...b.pricing, buyNoPriceUsd: 0, sellNoPriceUsd: 0 };
      break;
    case 'gx': {
      for (const gone of ['outcomes', 'clobTokenIds', 'rulesSecondary', 'gameNumber']) delete b[gone];
      Object.assign(b, {
        provider: 'gx',
        result: flavor.draw && m.result !== null ? 'draw' : m.result,
        gxMarketId: flavor.gxMarketId,
        gxEventId: flavor.gxEventId,
        betType: flavor.betType,
        marketCode: flavor.marketCode,
        marketStatus: m.status,
        isLive: m.status === 'open' && state.nowSec >= m.openTimeSec,
        category: 1,
        showCategory: flavor.marketCode === '1X2' ? 'Main' : 'Goals',
        sort: flavor.betType,
        combo: 0,
        sportsMarketType: flavor.marketCode === '1X2' ? 'moneyline' : 'totals',
        sportsLine: flavor.sportsLine,
        providerSportsLine: flavor.sportsLine,
        lineBasis: 'provider',
        marketOptions: [{ label: flavor.marketCode === '1X2' ? 'Draw' : `O ${flavor.sportsLine}`, buyYes: true }],
      });
      break;
    }
    case 'bisonfi': {
      for (const gone of ['clobTokenIds', 'outcomes', 'gameNumber', 'sportsMarketType', 'sportsLine', 'team']) delete b[gone];
      const label = flavor.side === 'up' ? 'Up' : 'Down';
      Object.assign(b, {
        provider: 'bisonfi',
        lifecycleStatus: m.status === 'open' ? 'open' : m.result === null ? 'resolving' : 'settled',
        tradable: m.status === 'open',
        // Settlement is on the issuer's side: never a result account of our program.
        marketResultPubkey: null,
        outcomeSide: flavor.side,
        sideLabel: label,
        outcomeMint: base58(state.seed, 'outcome-mint', m.marketId),
        marketPda: flavor.marketPda,
        outcomeTokenProgram: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
        marketOptions: [{ label, buyYes: true }],
      });
      break;
    }
  }
  return b as unknown as T;
}

/** `body` (today's event) with its `liveScore` when it is a gx sports event. */
export function flavorEvent<T extends object>(state: WorldState, e: SimEvent, body: T): T {
  const score = eventFlavorOf(e)?.liveScore;
  if (!score) return body;
  const markets = e.marketIds.map((id) => state.marketsById.get(id)!);
  const ended = markets.every((m) => m.status === 'closed');
  const endSec = Math.max(...markets.map((m) => m.closeTimeSec));
  const started = state.nowSec >= e.createdAtSec;
  return {
    ...body,
    liveScore: started
      ? {
          eventId: e.eventId,
          gameId: score.gameId,
          leagueAbbreviation: 'SIM',
          homeTeam: score.homeTeam,
          awayTeam: score.awayTeam,
          score: ended ? score.finalScore : '0-0',
          period: ended ? 'FT' : '1H',
          elapsed: null,
          status: ended ? 'ended' : 'live',
          live: !ended,
          ended,
          finishedTimestamp: ended ? new Date(servedSec(state, endSec) * 1000).toISOString() : null,
          updatedAt: new Date(servedSec(state, Math.min(state.nowSec, endSec)) * 1000).toISOString(),
        }
      : null,
  };
}
