import { TRADE_ACTIONS, TRADE_SIDES, type DriftTag, type RecordShape, type Trade } from '../domain/types.js';
import type { TradeWire } from '../wire/trade.js';
import { toDecimal } from './decimal.js';
import { DRIFT } from './driftTags.js';

/** A validated row of the trade feed as a domain trade: amounts as exact decimals, the unknown tagged. Pure. */
export function normalizeTrade(wire: TradeWire, ctx: { raw: unknown; shape: RecordShape }): Trade {
  const drift: DriftTag[] = [];
  if (!(TRADE_ACTIONS as readonly string[]).includes(wire.action)) drift.push(DRIFT.tradeActionUnknown);
  if (!(TRADE_SIDES as readonly string[]).includes(wire.side)) drift.push(DRIFT.tradeSideUnknown);
  if (typeof wire.priceUsd === 'number' || typeof wire.amountUsd === 'number') drift.push(DRIFT.tradeAmountAsNumber);
  return {
    tradeId: wire.id,
    marketId: wire.marketId,
    eventId: wire.eventId ?? null,
    tradedAtSec: Number(wire.timestamp),
    action: wire.action,
    side: wire.side,
    priceMicroUsd: toDecimal(wire.priceUsd),
    amountMicroUsd: toDecimal(wire.amountUsd),
    ownerPubkey: wire.ownerPubkey ?? null,
    drift,
    raw: ctx.raw,
    shape: ctx.shape,
  };
}
